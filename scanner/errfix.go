package scanner

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lessons-dev/lessons"
)

// Fixes a lesson on the error may say that a retry lesson may not. A
// retry lesson comes before every call it matches, so fixWorthy takes
// only a change that says how to call the command (a flag the error
// points at, a missing argument). A lesson on the error comes only
// after the same error, so it may also say what got past the error
// when the change is plainly the way past it, though not a way of
// calling the command next time:
//   - the check's own apply mode (cargo fmt after cargo fmt --check
//     failed), when the check passed after it: a step before the check;
//   - a flag the failure's output names, added while the arguments
//     changed too (git add -f after "Use -f if you really want to add
//     them");
//   - a variable set in front of the same commands (PATH=…, FOO=1 cmd):
//     the environment changed, the command did not; the value of one the
//     error names is no one-off (askedValues);
//   - a step run first in the same line, whose words the error names
//     (git add X && git commit … after "pathspec 'X' did not match");
//   - the same command without operands the error named, adding
//     nothing (git add a b after "paths are ignored …: b"), unless the
//     error is about what is in them (a test or a lint finding there):
//     leaving those out hides the failure;
//   - one operand the error named put right by the same name elsewhere
//     (.venv/bin/python for python, cmd/x.go for go/cmd/x.go): the
//     name, not another file or value, which is the next task's;
//   - options moved before the operands, the same words otherwise, when
//     the error names one (a program that reads options only before its
//     operands took --no-cache for a target);
//   - options added to the command the failure is put down to, aimed at
//     the same things or fewer (gh pr diff N --patch after "accepts at
//     most 1 arg(s)"), unless the failure was about content or the
//     error named only what the fix kept (addedOptions, leftAlone).
//
// Such a lesson is a reminder only (Signals.Reminds): a team never saw
// these fixes as candidates, so none is proposed for review.

// errorFix is what got past a watched shell failure in words, when the
// call of its family that worked is one of the changes above; ok is
// false otherwise.
func (w *errWatch) errorFix() (did string, ok bool) {
	failed, fix := w.rec.call.Command, w.fix.Command
	if w.check != "" && w.rechecked {
		return "`" + commandGist(fix) + "` (the command without " + w.check + ") fixed what the check reported, and the check passed after it: run it before the check", true
	}
	d, diffed := diffCommands(failed, fix)
	out := ""
	if diffed {
		out = w.res.headLower()
	}
	if flag := hintedFlag(d, out); diffed && flag != "" {
		return "the same command worked with `" + flag + "`, as the error's output suggests", true
	}
	if vars := envAdded(failed, fix); len(vars) > 0 {
		return "the same command worked with `" + strings.Join(vars, " ") + "` set", true
	}
	if !diffed {
		if moved := movedOptions(failed, fix, w.res.headLower()); len(moved) > 0 {
			return "the same command worked with " + quotedList(moved) + " put before its operands: after an operand, the program read it as one", true
		}
		return "", false
	}
	if step := namedPrelude(d, out); step != "" {
		return "`" + shownCommand(step, 200) + "`, run first in the same command, got past it (the error names what it works on): run such a step before the call", true
	}
	tests := testsFailed(w.res.Output)
	if from, to := swappedNamed(d, out, tests); from != "" {
		return "the same command worked with `" + clip(to, 120) + "` for `" + clip(from, 120) + "`, which the error named", true
	}
	if gone := droppedNamed(d, out, tests); len(gone) > 0 {
		return "the same command worked without " + quotedList(gone) + ", which the error named: leave out what it names, or do what it says to include it", true
	}
	if opts := addedOptions(d, tests || placedFinding.MatchString(w.res.Output)); len(opts) > 0 && d.exe == w.fam.Exe && !leftAlone(d, w.res) {
		return "`" + shownCommand(fix, 300) + "` worked, with " + quotedList(opts) + " added", true
	}
	return "", false
}

// addedOptions are the options a fix added to the same program and
// subcommand (d), aimed at the same things or at fewer of them (it drops
// operands, adds none): the call's way changed, not its target; nil
// otherwise. An option to look (--help) is no way, and none is when the
// failure was about content (found: tests failed, or a check placed
// findings at lines of files), which an option only gets past by
// fixing it for you or looking away (--fix, --quiet).
func addedOptions(d cmdDiff, found bool) []string {
	if d.exe != d.gexe || d.sub != d.gsub || d.prelude != nil || d.wrapper != nil || found {
		return nil
	}
	var opts []string
	for i, a := range d.added {
		switch {
		case exploring[a] || a == "--" || a == "-":
			return nil
		case strings.HasPrefix(a, "-"):
			opts = append(opts, a)
		case i == 0 || !strings.HasPrefix(d.added[i-1], "-"):
			return nil // an operand of its own: another target
		}
	}
	return opts
}

// namedPrelude is a step a fix ran before the same command in one line
// (d), when the step changes something (not cd, not a look around) and
// the error (out, lower case) names one of its words; "" otherwise.
func namedPrelude(d cmdDiff, out string) string {
	if d.prelude == nil {
		return ""
	}
	step := strings.Join(d.prelude, " ")
	if exe, _ := commandHead(d.prelude); exe == "cd" || !settingUp(step) && (lessons.CommandFamily(step).Probe || probes[exe]) {
		return ""
	}
	if !namedBy(out, &Call{Tool: "Bash", Command: step}) {
		return ""
	}
	return step
}

// droppedNamed are the operands a fix left out of the same command (d),
// adding nothing, when the error (out, lower case) names each of them,
// by its path, its first folder or its file name; nil otherwise, or when
// the error is about their content: tests failed, or it points at a
// line in one.
func droppedNamed(d cmdDiff, out string, tests bool) []string {
	if d.exe != d.gexe || d.sub != d.gsub || d.prelude != nil || d.wrapper != nil ||
		d.quoted != "" || d.dash != "" || len(d.added) > 0 || len(d.removed) == 0 || tests {
		return nil
	}
	for _, w := range d.removed {
		w = strings.ToLower(strings.Trim(w, `'"`))
		if strings.HasPrefix(w, "-") || strings.ContainsAny(w, "$`*?<>|") ||
			!namedOperand(out, w) && !(otherKind(w, d.g) && containsWord(out, w)) {
			return nil
		}
	}
	return d.removed
}

// otherKind reports whether a file operand w is of another kind than
// every operand of words that has one (gofmt given README.md beside
// .go files): named at a line, it was the wrong input, not a file whose
// findings leaving it out would hide.
func otherKind(w string, words []string) bool {
	ext := path.Ext(w)
	if ext == "" {
		return false
	}
	other := false
	for _, g := range words[1:] {
		e := strings.ToLower(path.Ext(strings.Trim(g, `'"`)))
		if e == "" || strings.HasPrefix(g, "-") {
			continue
		}
		if e == ext {
			return false
		}
		other = true
	}
	return other
}

// swappedNamed is the one operand a fix put in place of another in the
// same command (d, inPlace), changing nothing else, when the error (out,
// lower case) names the one it replaced and the new one is the same name
// elsewhere; "" otherwise, or when tests failed (another test is another
// run, not a name put right).
func swappedNamed(d cmdDiff, out string, tests bool) (from, to string) {
	if !d.inPlace() || len(d.added) != 1 || len(d.removed) != 1 || tests {
		return "", ""
	}
	from, to = d.removed[0], d.added[0]
	if !plainValue(from) || !plainValue(to) || !operand(from, d.f, d.removed) || !operand(to, d.g, d.added) ||
		strings.ContainsAny(from+to, "$`*?<>| \t\n") || baseName(from) != baseName(to) {
		return "", ""
	}
	if !namedOperand(out, strings.ToLower(strings.Trim(from, `'"`))) {
		return "", ""
	}
	return from, to
}

// baseName is a path's last part, without a trailing slash.
func baseName(p string) string { return path.Base(strings.TrimSuffix(p, "/")) }

// namedOperand reports whether an error's text (lower case) names an
// operand w by itself and not as a place in it (namesAlone): its path,
// its first folder, or its file name.
func namedOperand(out, w string) bool {
	w = strings.TrimPrefix(w, "./")
	top, _, _ := strings.Cut(w, "/")
	base := path.Base(strings.TrimSuffix(w, "/"))
	for _, n := range []string{strings.TrimSuffix(w, "/"), top, base} {
		if len(n) >= 3 && namesAlone(out, n) {
			return true
		}
	}
	return false
}

// appliedCheck is the check-mode flag (--check, --dry-run) that a fix
// dropped from the failed command, adding at most other flags (prettier
// --write for --check): the check's apply mode; "" otherwise.
func appliedCheck(failed, fix string) string {
	d, ok := diffCommands(failed, fix)
	if !ok || d.exe != d.gexe || d.sub != d.gsub || len(d.removed) != 1 || !checkMode[d.removed[0]] ||
		d.prelude != nil || d.wrapper != nil || slices.ContainsFunc(d.added, func(w string) bool { return !strings.HasPrefix(w, "-") }) {
		return ""
	}
	return d.removed[0]
}

// checksAgain reports whether a shell command runs the failed family
// with its check-mode flag again.
func checksAgain(cmd, fam, check string) bool {
	for _, seg := range segments(cmd) {
		if slices.Contains(seg, check) && lessons.CommandFamily(strings.Join(seg, " ")).String() == fam {
			return true
		}
	}
	return false
}

// hintedFlag is a flag the fix added to the same program and subcommand
// (d) that the failure's output (out, lower case) names as a word ("hint: Use -f if you really
// want to add them"), or "". Asking for help (--help, a usage error's
// "For more information, try '--help'") is looking, not a fix.
func hintedFlag(d cmdDiff, out string) string {
	if d.exe != d.gexe || d.sub != d.gsub || d.prelude != nil || d.wrapper != nil {
		return ""
	}
	for _, a := range d.added {
		k, _, _ := strings.Cut(a, "=")
		if strings.HasPrefix(k, "-") && len(k) >= 2 && k != "--" && !exploring[k] && containsWord(out, strings.ToLower(k)) {
			return a
		}
	}
	return ""
}

// envAdded are the variable assignments a fix sets in front of the
// failed command's simple commands, otherwise the same (PATH=… && cd x
// && go build, FOO=1 pytest, export FOO=1; pytest); nil when anything
// else changed or nothing was set.
func envAdded(failed, fix string) []string {
	fcmds, fvars := withoutAssignments(failed)
	gcmds, gvars := withoutAssignments(fix)
	if len(fcmds) == 0 || !slices.Equal(fcmds, gcmds) {
		return nil
	}
	var added []string
	for _, v := range gvars {
		if !slices.Contains(fvars, v) {
			added = append(added, v)
		}
	}
	return added
}

// withoutAssignments splits a command into its simple commands with
// neither assignments nor redirections, and the assignments it makes
// (in front of a command, alone, or exported).
func withoutAssignments(cmd string) (cmds, vars []string) {
	for _, seg := range segments(cmd) {
		if len(seg) > 1 && seg[0] == "export" {
			seg = seg[1:]
		}
		var words []string
		for _, w := range seg {
			switch {
			case len(words) == 0 && assignment.MatchString(w):
				vars = append(vars, w)
			case redirection.MatchString(w):
			default:
				words = append(words, w)
			}
		}
		if len(words) > 0 {
			cmds = append(cmds, strings.Join(words, " "))
		}
	}
	return cmds, vars
}

// askedValues is a fix's text with the values of the variables its error
// names left out (DATABASE_URL=postgresql://… after "DATABASE_URL is
// required but not set"): the error asked for the variable, so the value
// that got past it is the project's setting, not one task's (oneOff
// reads its slashes and digits as a task's path). A path of this machine
// stays: another checkout has it elsewhere.
func askedValues(fix, errText string) string {
	words := strings.Fields(fix)
	for i, w := range words {
		w = strings.Trim(w, "`'\",;:()[]")
		name, value, ok := strings.Cut(w, "=")
		if ok && value != "" && assignment.MatchString(w) && containsWord(errText, name) && !machinePath(value) {
			words[i] = name
		}
	}
	return strings.Join(words, " ")
}

// namesOwnFlag reports whether a watched shell failure's error line names
// a flag the failed command passed ("unknown flag: --no-pager"): the
// program refuses the flag, whatever its subcommand, while a retry's
// lesson on the same call speaks only before its own subcommand, so a
// lesson on the error says it after the failure too.
func (w *errWatch) namesOwnFlag() bool {
	if w.rec.call.Tool != "Bash" {
		return false
	}
	line, _ := lessons.ErrorLine(w.res.Output)
	line = strings.ToLower(line)
	for _, seg := range segments(w.rec.call.Command) {
		for _, a := range seg[1:] {
			k, _, _ := strings.Cut(a, "=")
			if strings.HasPrefix(k, "--") && len(k) > 3 && containsWord(line, strings.ToLower(k)) {
				return true
			}
		}
	}
	return false
}

// namesAlone reports whether w is a word of s somewhere that is not
// the start of a place in it: a line (w:12), a test (w::name), a path
// below it (w/x).
func namesAlone(s, w string) bool {
	return findWord(s, w, func(end int) bool {
		return !(end < len(s) && s[end] == '/' ||
			end+1 < len(s) && s[end] == ':' && (s[end+1] == ':' || s[end+1] >= '0' && s[end+1] <= '9'))
	})
}

// quotedList is words as `a`, `b`: the first maxListed, clipped, and
// how many more.
func quotedList(words []string) string {
	shown := make([]string, 0, maxListed)
	for _, w := range words[:min(len(words), maxListed)] {
		shown = append(shown, clip(w, 120))
	}
	s := "`" + strings.Join(shown, "`, `") + "`"
	if n := len(words) - len(shown); n > 0 {
		s += " and " + strconv.Itoa(n) + " more"
	}
	return s
}

// maxListed caps the words a lesson lists.
const maxListed = 3

// placedFinding matches a line of a check's output placed at a line of a
// file: a compiler's or linter's "src/a.go:12:3: …" or "src/a.ts(12,3):
// …", or a stylish report's "  12:3  error  …" under the file's name.
var placedFinding = regexp.MustCompile(`(?m)^\s*(?:[\w./\\@+-]+\.\w{1,6}(?::\d+(?::\d+)?[:\s]|\(\d+,\d+\):)|\d+:\d+\s+(?:error|warning)\b)`)

// movedOptions are the options a fix moved from after an operand to
// before it, in a simple command otherwise the same word for word (go
// run ./cmd/x --no-cache pkg:a after go run ./cmd/x pkg:a --no-cache
// failed with invalid target "--no-cache"), when the error (out, lower
// case) names one of them: a program that reads options only before its
// operands; nil otherwise.
func movedOptions(failed, fix, out string) []string {
	gs := segments(fix)
	for _, f := range segments(failed) {
		g := closest(f, gs)
		if g == nil || slices.Equal(f, g) || !slices.Equal(slices.Sorted(slices.Values(f)), slices.Sorted(slices.Values(g))) {
			continue
		}
		var moved, operands []string
		named := false
		for _, o := range headArgs(f) {
			if !strings.HasPrefix(o, "-") {
				operands = append(operands, o)
				continue
			}
			if !slices.ContainsFunc(operands, func(p string) bool { return slices.Index(g, o) < slices.Index(g, p) }) {
				continue // after the same operands as before
			}
			moved = append(moved, o)
			named = named || said(out, strings.ToLower(o))
		}
		if named {
			return moved
		}
		return nil
	}
	return nil
}
