package lessons

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ErrorClass names what went wrong in a failed call's output, specific
// enough to tell causes apart and coarse enough that the same mistake
// made twice gets the same class:
//   - "interrupted" for a call the user interrupted, "timeout" for one
//     that ran out of time;
//   - "command not found: NAME", "No module named NAME", "Cannot find
//     module NAME";
//   - a traceback's or a thrown exception's name ("KeyError",
//     "TypeError", "java.lang.NullPointerException");
//   - "missing path" when a file or directory does not exist;
//   - "usage" for a command given options or arguments it does not take;
//   - else the first line that says what went wrong, with quoted values,
//     paths, hashes and numbers masked (`<q>`, `<path>`, `<hash>`, `N`),
//     cut to 80 characters; "no output" when there is none, and
//     KilledClass when the status line says a signal ended the call.
//
// Status lines the agents wrap around output ("Exit code 1"), warnings,
// notes, the reports of checks that passed (NoticeLine) and a compiler's
// excerpt of the source (codeFrame) are skipped. The patterns compile on first use: the hook loads this
// package and most of its calls never need them.
func ErrorClass(text string) string {
	lines := errorLines(text, false)
	if len(lines) == 0 && signalStatus(text) {
		return KilledClass
	}
	return classOf(lines)
}

// KilledClass is the class of a call a signal ended with nothing
// printed but the agent's status line ("Exit code 144"): the process,
// or the shell that ran it, was killed.
const KilledClass = "killed by a signal"

// signalStatus reports whether an output's status line gives an exit
// status a signal caused (SignalExit).
func signalStatus(text string) bool {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		for _, p := range exitStatusWords {
			if rest, ok := strings.CutPrefix(line, p); ok {
				n, err := strconv.Atoi(strings.TrimSpace(rest))
				return err == nil && SignalExit(n)
			}
		}
	}
	return false
}

// classOf is ErrorClass of an output's error lines (errorLines).
func classOf(lines []string) string {
	if len(lines) == 0 {
		return NoOutputClass
	}
	re := classPatterns()
	body := strings.Join(lines, "\n")
	low := strings.ToLower(body)
	switch {
	case body == "interrupted by the user" || body == "Interrupted by user" || strings.HasPrefix(body, "[Request interrupted"):
		return "interrupted"
	case containsAny(low, timeoutPhrases):
		return "timeout"
	}
	if strings.Contains(body, "command not found") {
		if m := re.notFoundZsh.FindStringSubmatch(body); m != nil {
			return "command not found: " + m[1]
		}
		if m := re.notFound.FindStringSubmatch(body); m != nil {
			return "command not found: " + m[1]
		}
	}
	if name := notFoundElsewhere(body, re); name != "" {
		return "command not found: " + name
	}
	if strings.Contains(body, "No module named") {
		if m := re.noModule.FindStringSubmatch(body); m != nil {
			return "No module named " + m[1]
		}
	}
	if strings.Contains(body, "Cannot find ") || strings.Contains(body, "Can't resolve ") {
		if m := re.jsModule.FindStringSubmatch(body); m != nil {
			return "Cannot find module " + m[1]
		}
	}
	if k := refusal(low); k != "" {
		return refusedPrefix + k
	}
	if name := exceptionName(lines, re); name != "" {
		return name
	}
	switch {
	case containsAny(low, missingPhrases):
		return "missing path"
	case containsAny(low, usagePhrases) || strings.HasPrefix(low, "usage:") || strings.Contains(low, "\nusage:"):
		return "usage"
	}
	return maskLine(firstErrorLine(lines, re), re)
}

// notFoundElsewhere is the program a line says was not found in the
// words of Ubuntu's command-not-found handler ("Command 'X' not found,
// but can be installed with:"), Windows' cmd.exe ("'X' is not recognized
// as an internal or external command") or PowerShell ("The term 'X' is
// not recognized as the name of a cmdlet"), or "".
func notFoundElsewhere(s string, re *patterns) string {
	if !strings.Contains(s, "not found") && !strings.Contains(s, "is not recognized") {
		return ""
	}
	for _, name := range re.notFoundOS.FindStringSubmatch(s) {
		if name != "" && !strings.ContainsAny(name, " '") {
			return name
		}
	}
	return ""
}

// ErrorLine is the line of a failed call's output its ErrorClass was read
// from, unmasked: the line a lesson on the error can match again. wrapper
// is set when that line is only a runner's status line ("[lint] ERROR
// task failed"): it names no error of its own. "" when there is no
// output.
func ErrorLine(text string) (line string, wrapper bool) {
	lines := errorLines(text, true)
	if len(lines) == 0 {
		return "", false
	}
	re := classPatterns()
	for _, l := range lines {
		if strings.HasPrefix(l, timeoutNote) {
			// the agent's shell tool stopped it: what the command printed
			// before (a server's warning) is not why the call failed, nor
			// is how long it waited (2m 0.0s, 10s), which its setting says
			return timeoutSaid, false
		}
	}
	for _, find := range []func(string) bool{
		func(l string) bool { return strings.Contains(l, "command not found") || notFoundElsewhere(l, re) != "" },
		func(l string) bool { return strings.Contains(l, "No module named") },
		func(l string) bool { return re.jsModule.MatchString(l) },
		func(l string) bool { return refusal(strings.ToLower(l)) != "" },
		func(l string) bool { return findException(l, re) != "" },
		func(l string) bool { return containsAny(strings.ToLower(l), missingPhrases) },
		func(l string) bool { return containsAny(strings.ToLower(l), usagePhrases) },
	} {
		for _, l := range lines {
			if find(l) {
				return l, false
			}
		}
	}
	l := firstErrorLine(lines, re)
	if !saysError(l, re) || TallyLine(l) {
		// no line says what went wrong, or only how many tests failed:
		// the agent's note that the call ran out of time does
		// ("terminated command after exceeding timeout"), where the
		// output is a progress line or nothing, as does a test's own
		// ("Error: Timeout of 2000ms exceeded") under its runner's count
		for _, t := range lines {
			if containsAny(strings.ToLower(t), timeoutPhrases) {
				return t, false
			}
		}
	}
	return l, isWrapperLine(l, re)
}

// ErrorClass reads the first classHead and the last classTail lines of
// the output: what went wrong is said at the start, or at the end (a
// traceback's exception).
const (
	classHead = 40
	classTail = 20
)

// errorLines are the non-empty lines of a failure's output that
// ErrorClass reads, as a terminal displayed them (Displayed: a progress
// line's last state, not its frames), without the status lines agents
// add around it, nor lines of terminal escapes only; without the escapes
// in the others unless raw (ErrorLine's line is matched again as
// printed).
func errorLines(text string, raw bool) []string {
	text = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(text), "<tool_use_error>"), "</tool_use_error>")
	var head, tail []string
	runner := runnerOutput(text)
	diff, cut := false, false
	for line := range strings.Lines(text) {
		shown := Displayed(strings.TrimSuffix(line, "\n")) // what the terminal showed: not a progress line's frames
		switch {
		case shown == CutMark:
			cut = true
			continue
		case diffHeader(shown):
			diff = true
		case diff && (diffBody(shown) || cut):
			cut = false // the rest of a line cut in two is where the cut fell: in the diff
			continue    // a diff's lines quote the files: they say nothing of what failed
		case strings.TrimSpace(shown) != "":
			diff, cut = false, false
		}
		t := strings.TrimSpace(shown)
		if rest, ok := strings.CutPrefix(t, "Output: "); ok {
			t = strings.TrimSpace(rest) // Gemini CLI's result line
		}
		bare := strings.TrimSpace(StripANSI(t))
		if n := runnerTag(bare); runner && n > 0 {
			// the package and task a runner set it off with
			t, bare = strings.TrimSpace(cutRunner(t, n)), strings.TrimSpace(bare[n:])
		}
		if before, ok := SetupNoise(bare); ok {
			// the shell's start-up files, on every call: what the line
			// said before it, if anything
			bare = before
			if raw {
				t, _ = SetupNoise(t)
			}
		}
		if !raw {
			t = bare
		}
		if bare == "" || isStatusLine(bare) || NoticeLine(bare) || passReport(bare) || codeFrame(bare) {
			continue // a warning, a passing check, a compiler's excerpt of the source or the agent's shell set-up says nothing of what failed
		}
		if CaretLine(bare) {
			// a marker under a quoted source line (Node's throw, Python's
			// and compilers' excerpts): neither is the error
			if len(tail) > 0 {
				tail = tail[:len(tail)-1]
			} else if len(head) > 0 {
				head = head[:len(head)-1]
			}
			continue
		}
		if len(head) < classHead {
			head = append(head, t)
			continue
		}
		if len(tail) == classTail {
			tail = tail[1:]
		}
		tail = append(tail, t)
	}
	return append(head, tail...)
}

// CutMark is the line put where a long output was cut to its head and
// its tail: the lines on each side of it are not next to each other, and
// the one after it may be the end of a line.
const CutMark = "[…]"

// diffHeader reports a line that opens a diff or a hunk of one ("diff
// --git a/x b/x", "@@ -1,3 +1,4 @@", rustfmt's "Diff in src/x.rs:12:"):
// the lines under it quote the files compared.
func diffHeader(l string) bool {
	l = StripANSI(l)
	return strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "@@ -") || strings.HasPrefix(l, "Diff in ")
}

// WithoutDiffs is an output without the lines its diffs quote (a
// formatter's "Diff in src/a.rs:12:" and what follows, also past where a
// long output was cut): they are the files' lines ("/// Returns an
// error if …"), not what failed; the headers stay.
func WithoutDiffs(out string) string {
	if !strings.Contains(out, "Diff in ") && !strings.Contains(out, "@@ -") && !strings.Contains(out, "diff ") {
		return out
	}
	var keep []string
	diff, cut := false, false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case diffHeader(l):
			diff = true
		case diff && (l == "" || l == CutMark || cut || diffBody(l)):
			cut = l == CutMark // the rest of a line cut in two, inside a diff, is the diff's
			continue
		default:
			diff = false
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// diffBody reports a line that can be a diff's quoted line, as printed,
// colours aside: removed, added, or context (a leading space).
func diffBody(l string) bool {
	l = StripANSI(l)
	return l != "" && (l[0] == '-' || l[0] == '+' || l[0] == ' ')
}

// StripANSI drops a terminal's escape sequences (colours, cursor moves,
// a charset switch): a test runner that colours its report prints the
// same error with other codes from one run to the next, or none when
// piped; and a lesson's words are read as text, not on a terminal.
func StripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if k := escapeLen(s, i); k > 0 {
			i += k
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// escapeLen is the length of the terminal escape sequence at s[i], 0
// when none starts there.
func escapeLen(s string, i int) int {
	if s[i] != 0x1b {
		return 0
	}
	switch {
	case i+1 < len(s) && s[i+1] == '[':
		// a control sequence: parameters, then one final byte
		j := i + 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		return min(j+1, len(s)) - i
	case i+2 < len(s) && (s[i+1] == '(' || s[i+1] == ')'):
		return 3 // a charset switch: ESC ( B
	case i+1 < len(s):
		return 2 // a two-byte escape
	}
	return 1
}

// passReport reports a test runner's line for a test that passed, its
// mark at the end: "test a::b_rejects_invalid_input ... ok" (cargo,
// unittest), "tests/a.py::test_no_error PASSED [ 10%]" (pytest -v), or
// a check's name, a dot leader and Passed or Skipped ("check yaml....
// Passed", pre-commit's). A test's name says what it checks, not what
// failed.
func passReport(t string) bool {
	if strings.HasSuffix(t, " ... ok") || dotLeaderPass(t) {
		return true
	}
	i := strings.Index(t, " PASSED")
	return i > 0 && (i+len(" PASSED") == len(t) || t[i+len(" PASSED")] == ' ')
}

// dotLeaderPass reports a check's line that ends in a dot leader and
// Passed or Skipped, with a note in parentheses or not: "check xml....(no
// files to check)Skipped".
func dotLeaderPass(t string) bool {
	rest, ok := strings.CutSuffix(t, "Passed")
	if !ok {
		if rest, ok = strings.CutSuffix(t, "Skipped"); !ok {
			return false
		}
	}
	if strings.HasSuffix(rest, ")") {
		if i := strings.LastIndexByte(rest, '('); i > 0 {
			rest = rest[:i]
		}
	}
	return strings.HasSuffix(rest, "...")
}

// CaretLine reports a line of only markers (^, ~) that points into the
// source line above it, behind a runner's prefix or not, or PowerShell's
// (+ under the excerpt's +, then ~).
func CaretLine(t string) bool {
	if rest, ok := strings.CutPrefix(t, "+ "); ok {
		return strings.Trim(rest, "~ ") == "" && strings.Contains(rest, "~")
	}
	if !strings.Contains(t, "^") {
		return false
	}
	if n := runnerTag(t); n > 0 {
		t = t[n:]
	}
	return strings.Trim(t, "^~ ") == "" && strings.Contains(t, "^")
}

// codeFrame reports a line of a compiler's excerpt of the source around
// a diagnostic: a line number and a gutter ("42 │   defp f(x) do" in
// Elixir, "12 |     let x" in Rust, "123| value = …" in Nix), a gutter
// or a frame's border alone (│, with the markers under the excerpt), or
// the frame's pointer to where it is ("└─ lib/a.ex:42:22: A.f/1"). Text
// inside a box ("│ No such option: --foo │", Rich's errors) is no
// frame: it is the message.
func codeFrame(t string) bool {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 {
		rest := strings.TrimLeft(t[i:], " ")
		return strings.HasPrefix(rest, "|") || strings.HasPrefix(rest, "│")
	}
	if strings.IndexFunc(t, func(r rune) bool { return !(r >= 0x2500 && r <= 0x257f || strings.ContainsRune("|^~ ", r)) }) < 0 {
		return true // a gutter or a border alone, or the markers under the excerpt
	}
	for _, p := range []string{"└─ ", "╰─ ", "└── "} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			return locationAt().MatchString(rest)
		}
	}
	return false
}

// locationAt matches a path and its line at the start of a frame's
// pointer ("lib/a.ex:42:22: …"); compiled on first use.
var locationAt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\S+:\d+`) })

// isStatusLine reports a line an agent adds around a command's output.
func isStatusLine(t string) bool {
	for _, p := range []string{"Exit code", "Exit Code:", "Process exited with code", "Chunk ID:", "Wall time:",
		"Original token count:", "Directory:", "Command:", "Signal:", "Background PIDs:", "Process Group PGID:"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == "Output:" || t == "(empty)" || t == "(no output)"
}

// exceptionName is the exception a traceback ends with (Python prints
// the raised one last), else the first line that starts with one
// ("TypeError: x is not a function", "Uncaught ReferenceError: …").
func exceptionName(lines []string, re *patterns) string {
	traceback := false
	for _, l := range lines {
		if strings.HasPrefix(l, "Traceback (most recent call last)") {
			traceback = true
			break
		}
	}
	if traceback {
		for i := len(lines) - 1; i >= 0; i-- {
			if m := findException(lines[i], re); m != "" {
				return m
			}
		}
	}
	for _, l := range lines {
		if m := findException(l, re); m != "" {
			return m
		}
	}
	return ""
}

// findException is the exception a line starts with, or "".
func findException(l string, re *patterns) string {
	if !strings.Contains(l, "Error") && !strings.Contains(l, "Exception") && !strings.Contains(l, "Exit") &&
		!strings.Contains(l, "Interrupt") && !strings.Contains(l, "Failure") {
		return "" // most lines: no need for the regex
	}
	if m := re.exception.FindStringSubmatch(l); m != nil {
		return m[1]
	}
	return ""
}

// firstErrorLine is the first line that says something went wrong and
// is not a wrapper's status line nor a heading, else the first of those,
// else the first line. A task runner, make or a package manager ends a failure
// with a line of its own ("[lint] ERROR task failed", "make: ***
// [Makefile:9: test] Error 2", "npm ERR! code ELIFECYCLE"): it restates
// that what it ran failed, so the same wrapper line stands for every
// mistake made under it; the line the tool itself printed says which.
func firstErrorLine(lines []string, re *patterns) string {
	wrapper := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if cause, end, ok := buildCause(lines, i); ok {
			if cause != "" {
				return cause
			}
			i = end // a cause that points at the output that says it
			continue
		}
		if !saysError(l, re) || tableRow(l) {
			continue
		}
		if BuildHeader(l) {
			if wrapper == "" {
				wrapper = l // Gradle's header: its report says what went wrong
			}
			continue
		}
		if !isWrapperLine(l, re) && !isHeading(l) {
			return l
		}
		if wrapper == "" {
			wrapper = l
		}
	}
	if wrapper != "" && isWrapperLine(wrapper, re) {
		// only the runner says the script failed: a check that fails on
		// warnings says why in its last one ("[warn] Code style issues
		// found in 2 files", under "error: script "lint" exited with
		// code 1")
		for i := len(lines) - 1; i >= 0; i-- {
			if warned(lines[i]) {
				return lines[i]
			}
		}
	}
	if wrapper != "" {
		return wrapper
	}
	return lines[0]
}

// BuildHeader reports whether l is the header of Gradle's report of a
// failed build ("FAILURE: Build failed with an exception."): it says that
// the build failed, whatever failed.
func BuildHeader(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "FAILURE: Build ") }

// buildCause reads Gradle's report of what went wrong when lines[i] is
// its heading ("* What went wrong:"): the block's last cause ("> No tests
// found for given includes: …"), else its first line ("Execution failed
// for task ':app:test'."); "" when what it says only points elsewhere
// ("> Compilation failed; see the compiler error output for details."),
// where the compiler's lines say it. end is the block's last line.
func buildCause(lines []string, i int) (cause string, end int, ok bool) {
	if strings.Trim(lines[i], "* \t") != "What went wrong:" {
		return "", i, false
	}
	end = i
	for j := i + 1; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" || strings.HasPrefix(t, "* ") {
			break
		}
		end = j
		if c, isCause := strings.CutPrefix(t, "> "); isCause || cause == "" {
			cause = c
		}
	}
	if strings.Contains(strings.ToLower(cause), "see the ") {
		cause = ""
	}
	return cause, end, true
}

// BuildCause is what Gradle's report in text says went wrong: its cause
// (buildCause), else its headline ("Execution failed for task
// ':app:test'."); "" when text holds no such report.
func BuildCause(text string) string {
	lines := strings.Split(text, "\n")
	for i := range lines {
		if cause, end, ok := buildCause(lines, i); ok {
			if cause == "" && end > i {
				cause = strings.TrimSpace(lines[i+1])
			}
			return cause
		}
	}
	return ""
}

// warned reports whether a line is a warning that says something, not
// only the file it is about ("[warn] src/a.ts").
func warned(l string) bool {
	low := strings.ToLower(strings.TrimSpace(StripANSI(l)))
	rest, ok := "", false
	if i := strings.Index(low, "[warn"); i >= 0 {
		_, rest, ok = strings.Cut(low[i:], "]") // after a runner's prefix too
	}
	for _, p := range []string{"warn:", "warning:", "warn "} {
		if !ok {
			rest, ok = strings.CutPrefix(low, p)
		}
	}
	rest = strings.TrimSpace(rest)
	return ok && strings.Contains(rest, " ") && !strings.HasPrefix(rest, "/")
}

// StandsForError reports whether the line ErrorLine reads from a failed
// command's output can stand for what went wrong: the output has a class
// of its own (a timeout, a usage error, a missing path, program or
// module, a refusal, an exception), or the line says something went
// wrong (an error word, a diagnostic's place, a diff a check printed), or
// the output is a few lines only, all of it the failure's message. Not
// so the first line of a long output with none of those, which ErrorLine
// falls back to (a progress line, "Resolving dependencies", a banner, a
// table's header), nor a row of a table.
func StandsForError(text string) bool {
	lines := errorLines(text, false)
	if len(lines) == 0 {
		return true
	}
	re := classPatterns()
	l := firstErrorLine(lines, re)
	if classOf(lines) != maskLine(l, re) {
		return true // a class of its own
	}
	if tableRow(l) {
		return false // a row of a table the command printed ("lint\tfail\t2m38s\turl"): data, not a message
	}
	return len(lines) <= shortOutput || saysError(l, re) || diffHeader(l) || errorCode().MatchString(l)
}

// tableRow reports whether a line is a row of a tab-separated table (two
// tabs or more): a report's data, such as a check's status, not a message
// saying what went wrong.
func tableRow(l string) bool { return strings.Count(l, "\t") >= 2 }

// errorCode is a code a program names its error by: Node's and pnpm's
// ERR_ codes, an errno name before a colon ("EACCES: permission denied").
// Compiled on first use: the hook links this package, and a regex
// compiled at package load costs every hook call.
var errorCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bERR_[A-Z0-9_]{2,}|\bE[A-Z0-9]{2,}:`) })

// shortOutput is the most lines an output may have for its first line to
// stand for its error though it says nothing went wrong.
const shortOutput = 4

// isHeading reports whether a line is a heading a test runner prints over
// an error it then prints ("# Unhandled error between tests"): like a
// wrapper's status line, it says that something failed, not what; the
// line under it does.
func isHeading(l string) bool { return strings.HasPrefix(l, "# ") }

// saysError reports whether a line says something went wrong: it holds
// an error word, or it is a diagnostic placed at a file and line
// ("src/app.go:12:3: undefined: Foo"), the shape compilers and linters
// print whatever their wording.
func saysError(l string, re *patterns) bool {
	return errorWord(l) || re.diagnostic.MatchString(l)
}

// errorWord reports whether a line holds a word that says something
// went wrong ("error", "fatal", "cannot", "not found"…), in any case,
// as a word or a part of a name of its own ("TypeError", "no_error"),
// not inside a lower-case word that only holds its letters (the crate
// "thiserror" in a build's progress line).
func errorWord(l string) bool {
	low := strings.ToLower(l)
	sameBytes := len(low) == len(l)
	for _, w := range errorWords {
		for from := 0; ; {
			i := strings.Index(low[from:], w)
			if i < 0 {
				break
			}
			i += from
			if i == 0 || !sameBytes || !insideWord(l, i) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// errorWords are the words errorWord looks for, lower case.
var errorWords = []string{"error", "fatal", "fail", "cannot", "can't", "unable", "denied", "invalid", "refused",
	"not found", "panic", "unknown", "unexpected", "missing", "not allowed", "conflict", "rejected", "err!"}

// insideWord reports whether the text at l[i] goes on a lower-case word
// begun before it: a lower-case letter on both sides of the boundary.
func insideWord(l string, i int) bool {
	return l[i-1] >= 'a' && l[i-1] <= 'z' && !(l[i] >= 'A' && l[i] <= 'Z')
}

// maxWrapperLen is the longest line taken for a wrapper's status line.
const maxWrapperLen = 200

// onlyStatusWords reports whether a line with no quotes or brackets can
// be a status line: its words but the first, once numbers, paths and
// punctuation are set aside, are status words.
func onlyStatusWords(l string) bool {
	words := strings.Fields(strings.ToLower(l))
	for i, w := range words {
		w = strings.Trim(w, ":.,;()")
		if i == 0 || w == "" || strings.ContainsAny(w, "0123456789/\\.") || statusWords[w] {
			continue
		}
		return false
	}
	return true
}

// statusWords are the words a wrapper's status line is made of, besides
// the names of what it ran: it says that something ran and failed, and
// with which exit status, never why.
var statusWords = map[string]bool{
	"error": true, "errors": true, "err!": true, "failed": true, "failure": true, "fail": true, "task": true,
	"target": true, "recipe": true, "script": true, "command": true, "process": true, "job": true, "step": true,
	"completed": true, "exited": true, "exit": true, "code": true, "status": true, "with": true, "errno": true,
	"elifecycle": true, "lifecycle": true, "at": true, "the": true, "on": true, "line": true, "in": true,
	"run": true, "running": true, "to": true, "of": true, "returned": true, "non-zero": true, "nonzero": true,
	"***": true, "n": true, "<q>": true, "<path>": true,
}

// isWrapperLine reports whether a line only restates that what a runner
// ran failed: once the names of what ran (in brackets or quotes), paths
// and numbers are masked and the runner's own name that may lead the line
// ("make:", "npm") is dropped, every word left is a status word, and one
// of them says it failed.
func isWrapperLine(l string, re *patterns) bool {
	if len(l) > maxWrapperLen || !strings.ContainsAny(l, "[]'\"`‘’“”") && !onlyStatusWords(l) {
		return false // most error lines: no regex needed
	}
	l = re.bracketed.ReplaceAllString(l, " <q> ")
	l = re.quoted.ReplaceAllString(l, "<q>")
	l = re.path.ReplaceAllString(l, "<path>")
	l = re.number.ReplaceAllString(l, "N")
	words := strings.Fields(strings.ToLower(l))
	if len(words) > 1 && !statusWords[strings.Trim(words[0], ":.,")] {
		words = words[1:] // the runner's name
	}
	failed := false
	for _, w := range words {
		w = strings.Trim(w, ":.,;()")
		if w == "" {
			continue
		}
		if !statusWords[w] {
			return false
		}
		failed = failed || w == "failed" || w == "fail" || w == "failure" || w == "error" || w == "err!" || w == "elifecycle" || w == "errno"
	}
	return failed
}

// The phrases of a timeout, a missing path and a usage error, lower
// case: strings.Contains on the lowered output, where case-insensitive
// regexes would try every position.
var (
	timeoutPhrases = []string{"timed out", "timeout exceeded", "deadline exceeded", "timeout of ", "exceeding timeout"}
	missingPhrases = []string{"no such file or directory", "enoent", "does not exist", "cannot find the path",
		"cannot find the file", "not a directory", "no such directory", "path not found", "file not found",
		"directory not found", "could not find file", "could not find a part of the path"} // Go's, then .NET's
	usagePhrases = []string{"unknown option", "unknown flag", "unknown command", "unknown subcommand", "unknown argument",
		"unrecognized option", "unrecognized flag", "unrecognized command", "unrecognized subcommand", "unrecognized argument", "invalid option", "invalid choice", "invalid flag",
		"requires an argument", "requires a value", "require an argument", "requires argument", "requires value",
		"missing argument", "missing required argument", "missing option", "missing required option", "missing operand",
		"unexpected argument"}
)

func containsAny(s string, phrases []string) bool {
	for _, p := range phrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// maxClassLen caps a masked line's length, in runes.
const maxClassLen = 80

// maskLine masks what varies between two occurrences of the same
// mistake: quoted values, paths, hashes, numbers.
func maskLine(l string, re *patterns) string {
	l = contraction.Replace(l) // isn't: no quote opens there
	l = re.quoted.ReplaceAllString(l, "<q>")
	l = re.path.ReplaceAllString(l, "<path>")
	l = re.hash.ReplaceAllStringFunc(l, func(h string) string {
		if strings.ContainsAny(h, "0123456789") {
			return "<hash>"
		}
		return h // a word such as "defaced"
	})
	l = re.number.ReplaceAllString(l, "N")
	l = strings.Join(strings.Fields(l), " ")
	l = FirstSentence(l) // the same error in another version's words keeps its class
	if r := []rune(l); len(r) > maxClassLen {
		l = string(r[:maxClassLen])
	}
	return l
}

// contraction writes an English contraction's or possessive's apostrophe
// as a typographic one, which opens no quote.
var contraction = strings.NewReplacer("n't ", "n’t ", "'s ", "’s ", "'re ", "’re ", "'ve ", "’ve ", "'ll ", "’ll ", "'d ", "’d ", "'m ", "’m ")

// FirstSentence is an error line up to the end of its first sentence,
// when that sentence says enough on its own (three words or more): what
// follows ("Available agents: a, b, c", "Please use offset…") is advice
// or detail, which varies more than the error does, and which a tool
// rewords from one version to the next. An ellipsis ends no sentence.
func FirstSentence(line string) string {
	for i := 0; i+2 < len(line); i++ {
		if line[i] == '.' && line[i+1] == ' ' && i > 0 && line[i-1] != '.' && line[i-1] != ' ' && line[i+2] != '.' && len(strings.Fields(line[:i])) >= 3 {
			return line[:i+1]
		}
	}
	return line
}

// atLine is where in a file a diagnostic points: :LINE[:COL] or
// (LINE,COL).
const atLine = `(?:(?::\d+)+|\(\d+(?:,\d+)*\))`

// patterns are ErrorClass's regular expressions.
type patterns struct {
	notFound, notFoundZsh, notFoundOS, noModule, jsModule, exception, quoted, path, hash, number *regexp.Regexp
	// diagnostic is a line placed at a file and line; bracketed a name
	// in brackets ([lint], [Makefile:9: test]).
	diagnostic, bracketed *regexp.Regexp
}

var classPatterns = sync.OnceValue(func() *patterns {
	return &patterns{
		notFound:    regexp.MustCompile(`([\w.+-]+): command not found`),
		notFoundZsh: regexp.MustCompile(`command not found: ([\w.+-]+)`),
		notFoundOS: regexp.MustCompile(`Command '([\w.+-]+)' not found|'([\w.+-]+)' is not recognized as an internal or external command|` +
			`The term '([\w.+-]+)' is not recognized as (?:the|a) name of a cmdlet`),
		noModule: regexp.MustCompile(`No module named '?([\w.]+)`),
		jsModule: regexp.MustCompile(`(?:Cannot find (?:module|package)|Can't resolve) '([^']{1,100})'`), // Node's, a bundler's (webpack)
		exception: regexp.MustCompile(`^(?:Uncaught |Unhandled |Exception in thread "[^"]*" |E\s+)?` +
			`((?:[a-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure))(?::|$|\s)`),
		quoted: regexp.MustCompile("`[^`']*['`]|'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”"), // `GNU-style' quotes too
		path: regexp.MustCompile(`(?:[A-Za-z]:)?(?:~|\.{1,2})?[\w.@+-]*(?:[/\\][\w.@+-]+)+[/\\]?` + atLine + `?|` +
			`\b[\w-]+\.(?:py|go|js|ts|tsx|jsx|rs|rb|java|c|h|cpp|cc|hpp|cxx|cs|fs|kt|kts|swift|scala|hs|ml|ex|exs|erl|zig|php|lua|dart|jl|clj|` +
			`vue|svelte|html|css|scss|xml|sql|gradle|proto|tf|ps1|json|ya?ml|toml|md|txt|sh|lock)\b` + atLine + `?|` +
			`\b[\w-]+\.[A-Za-z]\w{0,5}` + atLine), // main.zig:3:5, Program.cs(12,5): where, not what
		hash:       regexp.MustCompile(`\b[0-9a-f]{7,64}\b`),
		number:     regexp.MustCompile(`\d+(?:\.\d+)*`),
		diagnostic: regexp.MustCompile(`^[\w./\\@+-]+\.\w{1,6}:\d+(?::\d+)?:\s`),
		bracketed:  regexp.MustCompile(`\[[^\]\s]{1,60}(?:[^\]]{0,60})\]`),
	}
})

// timeoutNote is how Claude Code's shell tool says it stopped a command,
// with the time it waited ("2m 0.0s", "10s") and then, on the same line,
// the first line the command printed; timeoutSaid is the note's words
// that say so, the same each time.
const (
	timeoutSaid = "Command timed out"
	timeoutNote = timeoutSaid + " after "
)
