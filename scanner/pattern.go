package scanner

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// Trigger generation: a lesson about a command should fire on the same
// executable and subcommand, and stay quiet once the fix is applied. The
// patterns are checked against the failing call (must match) and the fixed
// call (must not) before a candidate keeps them.

// shellWords splits a command into words, keeping quoted strings whole
// (quotes removed) and treating && || ; | and newlines as separate words.
// A backslash before a newline continues the line, as in the shell: the
// words after it are still arguments of the same command. A comment
// holds no words. A backslash inside a word before a letter, a digit or
// _ stays: no POSIX shell user escapes those there, and PowerShell and
// cmd read it as a path's separator; so does any backslash of a word
// that starts at a Windows drive (C:\Users\me\.codex).
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			// within double quotes a backslash keeps a quote, a
			// backslash, a $ or a backtick as it is
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			inWord = true
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++ // a continued line: the shell drops both
		case c == '\\' && inWord && i+1 < len(s) && (lessons.WindowsSeparator(s[i+1]) || lessons.DriveLetter(cur.String())):
			cur.WriteString(s[i : i+2]) // docs\SYSTEM_STATE.md: a Windows path, as PowerShell and cmd read it
			inWord = true
			i++
		case c == '\\' && i+1 < len(s):
			cur.WriteByte(s[i+1])
			inWord = true
			i++
		case c == '#' && !inWord:
			for i+1 < len(s) && s[i+1] != '\n' {
				i++ // a comment, to the end of its line
			}
		case c == ' ' || c == '\t' || c == '\\':
			flush()
		case c == '&' && (i > 0 && (s[i-1] == '>' || s[i-1] == '<') || i+1 < len(s) && s[i+1] == '>'):
			cur.WriteByte(c) // a redirection such as 2>&1 or &>file
			inWord = true
		case c == '\n' || c == ';' || c == '|' || c == '&' || c == '(' || c == ')':
			flush()
			op := string(c)
			if i+1 < len(s) && (c == '|' || c == '&') && s[i+1] == c {
				op += op[:1]
				i++
			}
			words = append(words, op)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words
}

func isOperator(w string) bool {
	switch w {
	case "\n", ";", "|", "||", "&", "&&", "(", ")":
		return true
	}
	return false
}

// segments splits a command into its simple commands.
func segments(cmd string) [][]string {
	cmd = stripHeredocs(cmd)
	var out [][]string
	var cur []string
	for _, w := range shellWords(cmd) {
		if isOperator(w) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

var heredoc = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// stripHeredocs drops the bodies of here-documents, which are data, not
// commands.
func stripHeredocs(cmd string) string {
	for {
		m := heredoc.FindStringSubmatchIndex(cmd)
		if m == nil {
			return cmd
		}
		word := cmd[m[2]:m[3]]
		rest := cmd[m[1]:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			return cmd[:m[0]] + rest
		}
		body := rest[nl+1:]
		end := len(body)
		for off := 0; off < len(body); {
			line, _, _ := strings.Cut(body[off:], "\n")
			if strings.TrimSpace(line) == word {
				end = off + len(line)
				break
			}
			off += len(line) + 1
		}
		cmd = cmd[:m[0]] + rest[:nl+1] + body[min(end, len(body)):]
	}
}

// wrappers run the command that follows them.
var wrappers = map[string]bool{"sudo": true, "env": true, "time": true, "command": true, "exec": true, "nohup": true, "nice": true, "timeout": true, "xargs": true}

// fileCommands take files or free text, never a subcommand.
var fileCommands = map[string]bool{
	"rm": true, "cat": true, "ls": true, "cp": true, "mv": true, "mkdir": true, "touch": true, "head": true,
	"tail": true, "grep": true, "rg": true, "find": true, "sed": true, "awk": true, "echo": true, "cd": true,
	"chmod": true, "chown": true, "ln": true, "wc": true, "sort": true, "python": true, "python3": true,
	"node": true, "bash": true, "sh": true, "zsh": true, "source": true, "curl": true, "wget": true,
	"tar": true, "printf": true, "diff": true, "test": true, "jq": true, "open": true, "less": true,
	"pytest": true, "tsc": true, "eslint": true, "prettier": true, "ruby": true, "perl": true,
}

var (
	subcommandWord = regexp.MustCompile(`^[a-z][a-z0-9:_-]*$`)
	assignment     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
)

// commandHead returns a simple command's executable (base name) and its
// subcommand ("" when it has none), skipping assignments and wrappers.
func commandHead(words []string) (exe, sub string) {
	i := 0
	for i < len(words) {
		w := words[i]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && exe == "":
			i++
			continue
		case wrappers[path.Base(w)] && exe == "":
			i++
			for i < len(words) && (strings.HasPrefix(words[i], "-") || isNumber(words[i])) {
				i++
			}
			continue
		}
		break
	}
	if i >= len(words) {
		return "", ""
	}
	exe = path.Base(words[i])
	if fileCommands[exe] {
		return exe, ""
	}
	for i++; i < len(words) && strings.HasPrefix(words[i], "-"); i++ {
		if optionWithValue[words[i]] {
			i++
		}
	}
	if i < len(words) && subcommandWord.MatchString(words[i]) && len(words[i]) <= 24 {
		sub = words[i]
	}
	return exe, sub
}

// headArgs are the words of a simple command after its executable and
// subcommand.
func headArgs(words []string) []string {
	exe, sub := commandHead(words)
	for i, w := range words {
		if exe == "" || path.Base(w) != exe {
			continue
		}
		rest := slices.Clone(words[i+1:])
		if j := slices.Index(rest, sub); sub != "" && j >= 0 {
			rest = slices.Delete(rest, j, j+1)
		}
		return rest
	}
	return nil
}

// optionWithValue are global options that take the next word, met before
// a subcommand (git -C dir status, npm --prefix dir run).
var optionWithValue = map[string]bool{
	"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--prefix": true, "--cwd": true,
	"--dir": true, "--project": true, "--filter": true, "-w": true, "--workspace": true, "--manifest-path": true,
}

func isNumber(s string) bool {
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' && r != 's' && r != 'm' {
			return false
		}
	}
	return s != ""
}

// esc escapes a literal for an ECMAScript regex.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\^$.|?*+()[]{}/-`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Word boundaries for shell words: a word starts the command or follows
// a blank or an operator, and ends before a blank, an operator or the end.
const (
	wordStart = `(?:^|[\s;&|(])`
	wordEnd   = `(?=$|[\s;&|)])`
)

// headPattern matches a command that runs exe (with sub, when set).
func headPattern(exe, sub string) string {
	// the family reads a program run by its path as the program
	// (./node_modules/.bin/vitest is vitest), and a quoted path as the
	// word the shell passes ("/c/Program Files/…/MSBuild.exe"): so does
	// the trigger
	p := wordStart + `(?:['"](?:[^'"]*/)?|[^\s;&|()'"]*/)?` + esc(exe) + `['"]?` + wordEnd
	if sub != "" {
		// global options may stand between them: git -C dir status
		p += `(?:\s+-\S+(?:\s+[^\s-]\S*)?)*?\s+` + esc(sub) + wordEnd
	}
	return p
}

// argPattern matches one argument; a --flag=value matches its flag, and
// a quoted argument of several words (a SQL statement) its first word,
// quoted or not.
func argPattern(arg string) string {
	if m := assignment.FindString(arg); m != "" {
		return wordStart + esc(m)
	}
	if strings.HasPrefix(arg, "-") {
		if k, _, ok := strings.Cut(arg, "="); ok {
			return wordStart + esc(k) + `(?==|` + wordEnd[3:]
		}
	}
	if first, _, ok := strings.Cut(arg, " "); ok && first != "" {
		return `(?:^|[\s;&|('"])` + esc(first) + `(?=$|[\s;&|)'"])`
	}
	return wordStart + `['"]?` + esc(arg) + `['"]?` + wordEnd
}

func mapEsc(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = esc(w)
	}
	return out
}

// commandPattern is the trigger for a command seen on its own: the head
// doerHead reads.
func commandPattern(cmd string) string {
	if exe, sub := doerHead(cmd); exe != "" {
		return headPattern(exe, sub)
	}
	return ""
}

// doerHead is the head of a command line's first simple command that is
// not a cd or an assignment, nor a look around (pwd, ls, echo:
// lessons.Family.Probe) when one that does something follows: `ls -la
// dir && sed … file` is about sed.
func doerHead(cmd string) (exe, sub string) {
	var firstExe, firstSub string
	for _, seg := range segments(cmd) {
		exe, sub := commandHead(seg)
		if exe == "" || exe == "cd" || exe == "export" || exe == "set" || exe == "source" {
			continue
		}
		if !lessons.WordsFamily(seg).Probe {
			return exe, sub
		}
		if firstExe == "" {
			firstExe, firstSub = exe, sub
		}
	}
	return firstExe, firstSub
}

// runsScript reports whether a simple command of cmd, seg, runs a script
// written into the line: a word of several lines (python3 -c "…"), or a
// here-document its program reads (python3 <<'EOF'), which segments
// leaves out.
func runsScript(cmd string, seg []string) bool {
	if len(seg) == 0 {
		return false
	}
	if slices.ContainsFunc(seg, func(w string) bool { return strings.Contains(w, "\n") }) {
		return true
	}
	for line := range strings.Lines(cmd) {
		if before, _, ok := strings.Cut(line, "<<"); ok && slices.Contains(strings.Fields(before), seg[0]) {
			return true
		}
	}
	return false
}

// onlyScriptFlags reports whether all a diff adds and drops is an
// option that hands a program its script (-c, -e, --eval, -).
func onlyScriptFlags(d cmdDiff) bool {
	words := append(slices.Clone(d.added), d.removed...)
	return len(words) > 0 && !slices.ContainsFunc(words, func(w string) bool {
		return w != "-c" && w != "-e" && w != "--eval" && w != "-"
	})
}

// cmdDiff is how a fixed command differs from the failing one, in the
// first simple command that changed.
type cmdDiff struct {
	exe, sub   string   // the failing command's head
	gexe, gsub string   // the fixed command's head
	f, g       []string // the two simple commands' words
	added      []string // words of g not in f, flags first
	removed    []string // words of f not in g, flags first
	prelude    []string // a simple command the fix ran before the same one
	wrapper    []string // words the fix put before the same command (uv run)
	quoted     string   // a word with * or ? that the fix quoted
	dash       string   // a quoted argument starting with - that the fix marked or dropped
}

// addedValue reports whether sub, the word commandHead took for the
// subcommand of the simple command words, comes right after a flag and
// both were added (in added): commandHead cannot tell a flag's value from
// a subcommand, and a command that had no subcommand before gained none.
func addedValue(words []string, sub string, added []string) bool {
	if sub == "" {
		return false
	}
	i := slices.Index(words, sub)
	return i > 0 && strings.HasPrefix(words[i-1], "-") && slices.Contains(added, words[i-1]) && slices.Contains(added, sub)
}

// diffCommands finds the simple command of failing that the fix changed
// and what changed in it. ok is false when nothing comparable changed.
func diffCommands(failing, fixed string) (cmdDiff, bool) {
	fs, gs := segments(failing), segments(fixed)
	if w := quotedGlob(failing, fixed); w != "" {
		for _, f := range fs {
			if slices.Contains(f, w) {
				d := cmdDiff{f: f, g: f, quoted: w}
				d.exe, d.sub = commandHead(f)
				d.gexe, d.gsub = d.exe, d.sub
				return d, d.exe != ""
			}
		}
	}
	seen := map[string]bool{}
	for _, g := range gs {
		seen[strings.Join(g, " ")] = true
	}
	for _, f := range fs {
		if seen[strings.Join(f, " ")] {
			continue
		}
		exe, sub := commandHead(f)
		if exe == "" || exe == "cd" {
			continue
		}
		g := closest(f, gs)
		if g == nil {
			continue
		}
		d := cmdDiff{exe: exe, sub: sub, f: f, g: g}
		d.gexe, d.gsub = commandHead(g)
		d.added, d.removed = wordDiff(f, g)
		if d.sub == "" && addedValue(g, d.gsub, d.added) {
			d.gsub = "" // deploy.sh, then deploy.sh --env dev: dev is --env's value
		}
		if i := listChanged(f, g); i > 0 && len(d.added)+len(d.removed) == 0 {
			d.removed, d.added = []string{f[i]}, []string{g[i]} // a long list wordDiff leaves out
		}
		if d.gexe != d.exe && len(g) > len(f) && slices.Equal(g[len(g)-len(f):], f) {
			d.wrapper = g[:len(g)-len(f)]
		}
		d.dash = dashArg(failing, f, g)
		if d.gexe == d.exe && d.gsub == d.sub && onlyScriptFlags(d) && (runsScript(failing, f) || runsScript(fixed, g)) {
			return cmdDiff{}, false // a script written into the line passed another way (<<'EOF', then -c "…"): the change is its code
		}
		if d.gexe != d.exe || d.gsub != d.sub || len(d.added)+len(d.removed) > 0 {
			return d, true
		}
	}
	// Every simple command is still there: the fix ran something first
	// (source .venv/bin/activate && pytest), that does more than look
	// around (ls, cat, echo: lessons.Family.Probe changes nothing).
	if len(gs) > len(fs) && len(fs) > 0 {
		for i, g := range gs {
			if exe, _ := commandHead(g); exe != "" && !slices.ContainsFunc(fs, func(f []string) bool { return slices.Equal(f, g) }) {
				if lessons.WordsFamily(g).Probe {
					return cmdDiff{}, false
				}
				d := cmdDiff{f: preludeOf(gs[i+1:], fs), prelude: g}
				d.g = d.f
				d.exe, d.sub = commandHead(d.f)
				d.gexe, d.gsub = d.exe, d.sub
				return d, d.exe != "" && d.exe != "cd"
			}
		}
	}
	return cmdDiff{}, false
}

// exeWord is the word of a simple command that names its executable exe,
// as written: .venv/bin/python is not the python on the PATH.
func exeWord(words []string, exe string) string {
	for _, w := range words {
		if path.Base(w) == exe {
			return w
		}
	}
	return exe
}

// preludeOf is the failing command a prelude runs before: the first of
// the commands after it that the failing line ran too (cd X && git add
// …, the git add, not the git push at the chain's end), else the failing
// line's last.
func preludeOf(after, fs [][]string) []string {
	for _, g := range after {
		if exe, _ := commandHead(g); exe != "" && exe != "cd" && slices.ContainsFunc(fs, func(f []string) bool { return slices.Equal(f, g) }) {
			return g
		}
	}
	return fs[len(fs)-1]
}

// fixPatterns builds a trigger from a failing command and the fixed one
// that worked: the head of the simple command that changed, narrowed by a
// removed argument, and an unless for the arguments the fix added. The
// value of an option the fix added is named by a placeholder unless
// errText (the failure's output) names it (taskValues). ok is false when
// no such trigger tells the two apart.
func fixPatterns(failing, fixed, errText string) (commands, unless []string, change string, ok bool) {
	d, ok := diffCommands(failing, fixed)
	if !ok {
		return nil, nil, "", false
	}
	head := headPattern(d.exe, d.sub)
	switch {
	case d.quoted != "":
		change = "quote " + d.quoted + ": the shell expands its * or ? as a file pattern"
		commands = []string{head + `[^|;&\n'"]*\s[^\s'"|;&]*[*?]`} // no quote before the word: it may be inside one
	case d.dash != "":
		change = "put -e (or --) before a pattern that starts with -, such as " + d.dash + ", or it is read as an option"
		commands = []string{head + `[^|;&\n]*\s['"]-`}
		unless = []string{`(?:^|\s)(?:-e|--regexp|--)\s+['"]?-`}
	case d.wrapper != nil:
		change = "run it through `" + strings.Join(d.wrapper, " ") + "`"
		commands = []string{head}
		unless = []string{wordStart + strings.Join(mapEsc(d.wrapper), `\s+`) + wordEnd}
	case d.prelude != nil:
		change = "run `" + strings.Join(d.prelude, " ") + "` first"
		commands = []string{head}
		unless = []string{argPattern(longest(d.prelude))}
	case d.gexe != d.exe:
		change = "use " + exeWord(d.g, d.gexe) + " instead of " + d.exe
		commands = []string{head}
	case d.gsub != d.sub:
		change = "use " + d.gexe + " " + d.gsub + " instead of " + d.exe + " " + d.sub
		commands = []string{head}
	case listDrop(flagValue(d)) != nil:
		fv := flagValue(d)
		drop := listDrop(fv)
		change = "drop " + strings.Join(drop, ", ") + " from " + fv.flag + "'s list (it takes no such value)"
		commands = []string{head + `.*` + wordStart + esc(fv.flag) + `(?:\s+|=)['"]?(?:[^\s;&|]*?,)?` + esc(drop[0]) + `(?=$|[,'"\s;&|)])`}
	case flagValue(d) != nil:
		fv := flagValue(d)
		change = "use " + fv.flag + " " + fv.to + " instead of " + fv.flag + " " + fv.from
		commands = []string{head + `.*` + wordStart + esc(fv.flag) + `(?:\s+|=)` + esc(fv.from) + wordEnd}
	case len(d.added) == 1 && len(d.removed) == 1 && !strings.HasPrefix(d.added[0], "-") && !strings.HasPrefix(d.removed[0], "-"):
		change = "use `" + clip(d.added[0], 80) + "` instead of `" + clip(d.removed[0], 80) + "`"
		commands = []string{head + `.*` + argPattern(d.removed[0])}
		unless = []string{argPattern(d.added[0])}
	case len(d.added) > 0:
		values := d.taskValues(errText)
		isValue := map[string]bool{}
		for _, v := range values {
			isValue[v] = true
		}
		var shown []string
		for _, a := range d.added {
			if isValue[a] {
				continue // shown by its option's placeholder: any value will do
			}
			shown = append(shown, a)
			if _, ok := values[a]; ok {
				shown = append(shown, placeholder(a))
			}
			if len(unless) < 2 && !optionEnds[a] { // a bare -- says nothing
				unless = append(unless, argPattern(a))
			}
		}
		change = "add " + strings.Join(shown, " ")
		commands = []string{head}
		if d.givenWhatToDo() {
			// the command run bare (claude mcp, which prints its usage)
			// and then given what to do: the lesson is on the bare form,
			// not on every call that names another subcommand (an option
			// or a setting, STAGE=dev, every call may lack)
			commands = []string{head + bareEnd}
		}
		if len(d.removed) > 0 {
			change += ", drop " + strings.Join(d.removed, " ")
			// The failing form had what the fix dropped: key on it too,
			// or the lesson fires on every call without the added words.
			commands = []string{head + `.*` + argPattern(dropped(d.removed, errText))}
		}
	default:
		change = "drop " + strings.Join(d.removed, " ")
		commands = []string{head + `.*` + argPattern(dropped(d.removed, errText))}
	}
	if !examplesHold(commands, unless, failing, fixed) {
		return nil, nil, "", false
	}
	return commands, unless, change, true
}

// bareEnd ends a command's pattern where the command ends: nothing but
// redirections after it before the line or the simple command ends.
const bareEnd = `(?:\s+\d?>&?\S+)*\s*(?=$|[;&|)])`

// bare reports whether the failing simple command was its head alone
// (the program, and its subcommand when it has one).
func (d cmdDiff) bare() bool {
	w := d.f[programAt(d.f):]
	if d.sub == "" {
		return len(w) == 1
	}
	return len(w) == 2 && w[1] == d.sub
}

// givenWhatToDo reports whether the failing command was run bare and the
// fix, the same program, only added words that are no option or setting
// (claude mcp, which prints its usage, then claude mcp list): told
// nothing to do, the program printed its usage, and the fix named what
// to do.
func (d cmdDiff) givenWhatToDo() bool {
	return d.gexe == d.exe && len(d.removed) == 0 && len(d.added) > 0 && d.bare() &&
		!slices.ContainsFunc(d.added, func(a string) bool { return strings.HasPrefix(a, "-") || strings.Contains(a, "=") })
}

// taskValues maps each option the fix added along with a value
// (--branch feature/x) to that value, when which branch, file or name it
// is belongs to the call's task: a lesson shows a placeholder for it
// (--branch BRANCH). A value the error names (git push's "origin"), one
// the failing call held already, or a setting (addopts=) is the fix's
// own, and shown as it is.
func (d cmdDiff) taskValues(errText string) map[string]string {
	lower := strings.ToLower(errText)
	values := map[string]string{}
	for i := 1; i < len(d.g); i++ {
		opt, w := d.g[i-1], d.g[i]
		if strings.HasPrefix(opt, "--") && len(opt) > 2 && !strings.Contains(opt, "=") && plainValue(w) &&
			slices.Contains(d.added, opt) && slices.Contains(d.added, w) && !strings.Contains(lower, strings.ToLower(w)) {
			values[opt] = w
		}
	}
	return values
}

// placeholder names an option's value by the option (--body-file:
// BODY_FILE), as a usage line does.
func placeholder(opt string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.TrimLeft(opt, "-"), "-", "_"))
}

// dropped is the word a trigger keys a dropped change on: the removed
// option the error names (PowerShell's "cannot be found that matches
// parameter name 'Skip'", "unknown option --foo"), else the first
// removed word that says something, not a bare -- (npm test -- --watch:
// any call that passes its runner an option holds the --).
func dropped(removed []string, errText string) string {
	for _, w := range removed {
		opt, _, _ := strings.Cut(w, "=")
		if name := strings.TrimLeft(opt, "-"); name != opt && len(name) > 1 && namesOption(errText, opt, name) {
			return w
		}
	}
	for _, w := range removed {
		if !optionEnds[w] {
			return w
		}
	}
	return removed[0]
}

// namesOption reports whether an error names option opt, as written or
// by its name in quotes.
func namesOption(errText, opt, name string) bool {
	if strings.Contains(errText, opt) {
		return true
	}
	for _, q := range []string{"'", `"`, "`"} {
		if strings.Contains(errText, q+name+q) {
			return true
		}
	}
	return false
}

// listChanged is the index of the one word of f that g changed when it
// is a flag's comma-separated list in both (--json a,b,c), else 0.
func listChanged(f, g []string) int {
	if len(f) != len(g) {
		return 0
	}
	at := 0
	for i := range f {
		if f[i] == g[i] {
			continue
		}
		if at > 0 || i == 0 || !strings.HasPrefix(f[i-1], "-") || !strings.Contains(f[i], ",") || !strings.Contains(g[i], ",") {
			return 0
		}
		at = i
	}
	return at
}

// lists reports whether a flag's value changed from one comma-separated
// list to another (--json title,url → --json title,files).
func (fv *valueChange) lists() bool {
	return fv != nil && strings.Contains(fv.from, ",") && strings.Contains(fv.to, ",")
}

// listDrop is what a fix dropped from a flag's comma-separated list
// (--json title,reviewThreads,url → --json title,url,files), one or two
// values, or nil (for no such change too): the values it added are the
// task's choice, what it dropped is what the flag did not take.
func listDrop(fv *valueChange) []string {
	if !fv.lists() {
		return nil
	}
	to := strings.Split(fv.to, ",")
	var drop []string
	for _, v := range strings.Split(fv.from, ",") {
		if v != "" && !slices.Contains(to, v) {
			drop = append(drop, v)
		}
	}
	if len(drop) == 0 || len(drop) > 2 {
		return nil
	}
	return drop
}

// listNamed reports whether an error's line (lessons.ErrorLine, not a
// list of the values it takes) names one of the values dropped.
func listNamed(drop []string, out string) bool {
	if len(drop) == 0 {
		return false // nothing dropped: no need to read the error
	}
	line, _ := lessons.ErrorLine(out)
	line = strings.ToLower(line)
	return slices.ContainsFunc(drop, func(v string) bool { return containsWord(line, strings.ToLower(v)) })
}

// valueChange is a flag whose value a fix changed: --since 1d → --since 1.
type valueChange struct{ flag, from, to string }

// flagValue finds the one flag whose value is all a diff changed, or nil.
func flagValue(d cmdDiff) *valueChange {
	if len(d.added) != 1 || len(d.removed) != 1 || strings.HasPrefix(d.added[0], "-") || strings.HasPrefix(d.removed[0], "-") {
		return nil
	}
	i := slices.Index(d.f, d.removed[0])
	j := slices.Index(d.g, d.added[0])
	if i < 1 || j < 1 || d.f[i-1] != d.g[j-1] || !strings.HasPrefix(d.f[i-1], "-") {
		return nil
	}
	return &valueChange{flag: d.f[i-1], from: d.removed[0], to: d.added[0]}
}

func longest(ws []string) string {
	best := ""
	for _, w := range ws {
		if len(w) > len(best) {
			best = w
		}
	}
	return best
}

// closest returns the simple command of gs that shares most words with f.
func closest(f []string, gs [][]string) []string {
	var best []string
	bestScore := 0.0
	exe, _ := commandHead(f)
	for _, g := range gs {
		if e, _ := commandHead(g); e == exe && len(gs) > 1 {
			return g // the same command in a pipeline, whatever its arguments
		}
	}
	for _, g := range gs {
		if s := jaccard(f, g); s > bestScore {
			best, bestScore = g, s
		}
	}
	if bestScore < 0.3 {
		return nil
	}
	return best
}

func jaccard(a, b []string) float64 {
	set := map[string]int{}
	for _, w := range a {
		set[w] |= 1
	}
	for _, w := range b {
		set[w] |= 2
	}
	both := 0
	for _, v := range set {
		if v == 3 {
			both++
		}
	}
	if len(set) == 0 {
		return 0
	}
	return float64(both) / float64(len(set))
}

// wordDiff returns the flags and words g has and f lacks, and those f has
// and g lacks; flags come first.
func wordDiff(f, g []string) (added, removed []string) {
	in := func(w string, ws []string) bool {
		for _, x := range ws {
			if x == w {
				return true
			}
		}
		return false
	}
	pick := func(a, b []string) []string {
		var flags, words []string
		for _, w := range a {
			if in(w, b) || len(w) > 60 || strings.ContainsAny(w, "\n<>") {
				continue
			}
			if strings.HasPrefix(w, "-") {
				flags = append(flags, w)
			} else {
				words = append(words, w)
			}
		}
		return append(flags, words...)
	}
	return pick(g, f), pick(f, g)
}

// examplesHold checks a generated trigger on the two calls: the failing
// one must fire it, the fixed one must not.
func examplesHold(commands, unless []string, failing, fixed string) bool {
	t := lessons.Trigger{Commands: commands, Unless: unless}
	return commandFires(t, failing) && (fixed == "" || !commandFires(t, fixed))
}

// commandFires reports whether a trigger's commands and unless patterns
// fire on a Bash command, the way the hook matches them. A pattern that
// does not compile never fires.
func commandFires(t lessons.Trigger, cmd string) bool { return commandMatcher(t)(cmd) }

// commandMatcher compiles a trigger's commands and unless patterns once,
// for matching many commands. A commands pattern that does not compile
// never fires; an unless pattern that does not compile vetoes every
// command.
func commandMatcher(t lessons.Trigger) func(cmd string) bool {
	var cmds, unless []*lessons.Pattern
	for _, p := range t.Commands {
		if re, err := lessons.CompilePattern(p); err == nil {
			cmds = append(cmds, re)
		}
	}
	for _, p := range t.Unless {
		re, err := lessons.CompilePattern(p)
		if err != nil {
			return func(string) bool { return false }
		}
		unless = append(unless, re)
	}
	matches := func(res []*lessons.Pattern, cmd string) bool {
		for _, re := range res {
			if ok, _ := re.MatchString(cmd); ok {
				return true
			}
		}
		return false
	}
	return func(cmd string) bool { return matches(cmds, cmd) && !matches(unless, cmd) }
}

// inPlace is the change a retry made to one simple command in place,
// and whether it is one: not another program, a wrapper, a step first, a
// quoting, or one option's value (--since 1d to 1). What the retry's
// words were for (operands, task values, what the call lacked, operands
// refused) is read from it.
func inPlace(failing, fixed string) (cmdDiff, bool) {
	d, ok := diffCommands(failing, fixed)
	return d, ok && d.inPlace()
}

// inPlace reports whether a found change (diffCommands) is one in place
// (inPlace).
func (d cmdDiff) inPlace() bool {
	return d.quoted == "" && d.dash == "" && d.wrapper == nil && d.prelude == nil && d.gexe == d.exe && d.gsub == d.sub && flagValue(d) == nil
}

// operandChange reports whether a retry added or dropped two or more
// operands of the command it changed (files to stage, words of a query,
// files to check), not only its options and their values: which operands
// a call takes is its task's, not a way of calling the command. One
// operand (git push -u origin main names the branch) may be the fix.
func (d cmdDiff) operandChange() bool {
	n := 0
	for _, w := range d.added {
		if operand(w, d.g, d.added) {
			n++
		}
	}
	for _, w := range d.removed {
		if operand(w, d.f, d.removed) {
			n++
		}
	}
	return n >= 2
}

// taskValue reports whether a retry changed what a command works on
// rather than how it is called: it added an operand (a test's name, a
// query) that the error did not print beside another change, or it only
// dropped an option with its value (a workflow or tag the tool did not
// find: the right value, not calling without the option, was the fix).
// Which operands and values a call takes is its task's, not a way of
// calling the command; an option added with its value beside a change
// (-o addopts= for -p no:xdist) may be the way.
func (d cmdDiff) taskValue(errText string) bool {
	for _, w := range d.added {
		if plainValue(w) && operand(w, d.g, d.added) && !strings.Contains(errText, w) {
			return true
		}
	}
	if len(d.added) > 0 {
		return false
	}
	for i, w := range d.f {
		if i > 0 && plainValue(w) && slices.Contains(d.removed, w) && slices.Contains(d.removed, d.f[i-1]) && strings.HasPrefix(d.f[i-1], "-") && !strings.Contains(d.f[i-1], "=") {
			return true
		}
	}
	return false
}

// refusedOperand reports whether a retry dropped an operand that a
// usage error names ("unexpected argument 'b' found", "unrecognized
// arguments: b"): the command takes fewer operands, which every call of
// it meets, whatever the names were.
func (d cmdDiff) refusedOperand(errText string) bool {
	return misuse.MatchString(errText) && slices.ContainsFunc(d.removed, func(w string) bool {
		return plainValue(w) && operand(w, d.f, d.removed) && strings.Contains(errText, w)
	})
}

// plainValue reports whether a word is a value: no option, setting or
// redirection, and it names something (a letter or a digit).
func plainValue(w string) bool {
	return !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "=<>&|") && strings.IndexFunc(w, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}) >= 0
}

// operand reports whether word w of a simple command is an operand: not
// an option, a variable set or a redirection, nor the value of an option
// that changed with it (-p app/tsconfig.json added; --noEmit, there
// before, takes no value of the word after it).
func operand(w string, words, changed []string) bool {
	if strings.HasPrefix(w, "-") || strings.ContainsAny(w, "=<>&") {
		return false
	}
	i := slices.Index(words, w)
	if i < 1 {
		return true
	}
	prev := words[i-1]
	return !strings.HasPrefix(prev, "-") || strings.Contains(prev, "=") || !slices.Contains(changed, prev)
}
