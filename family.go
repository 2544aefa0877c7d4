package lessons

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// Family is what a shell command runs, as capture and replay group
// calls: the executable and, for tools made of subcommands, the
// subcommand ("npm test", "git push", "rg"). A failure and its fix share
// a family, and a failure repeats an earlier one of its family.
type Family struct {
	// Exe is the executable's base name, past wrappers such as sudo, env,
	// npx and uv run; "" for a command that only sets up (cd, export).
	Exe string
	// Sub is the subcommand of a tool made of them ("push" for git), with
	// the script's name for a script runner ("run lint" for npm run
	// lint), or "-m pip" for python -m pip; else "".
	Sub string
	// Probe: the command only looks around (--help, --version, which,
	// ls, cat…); its failure teaches nothing worth a lesson.
	Probe bool
}

// String is the family's name: Exe, then Sub if any ("git push").
func (f Family) String() string {
	if f.Sub == "" {
		return f.Exe
	}
	return f.Exe + " " + f.Sub
}

// CommandFamily names the family of a shell command: that of its first
// simple command that does something and is no probe (`cd app && npm
// test | tail` is "npm test"), else of its first probe, else the zero
// Family.
func CommandFamily(command string) Family {
	var first Family
	for _, seg := range segments(command) {
		f := segmentFamily(shellWords(seg.text))
		if f.Exe == "" {
			continue
		}
		if !f.Probe {
			return f
		}
		if first.Exe == "" {
			first = f
		}
	}
	return first
}

// maxFamilies caps the families a successful call is checked for.
const maxFamilies = 4

// FixFamilies are the distinct families, at most four, a successful
// command may have fixed: its simple commands that do something, are no
// probes, and whose exit status the shell did not hide in a pipe (`go vet
// ./... && go test ./...` may fix a failed `go test`; `npm test | tail`
// says nothing about npm, unless the line sets pipefail).
func FixFamilies(command string) []Family {
	var out []Family
	for _, seg := range segments(command) {
		if seg.piped && !strings.Contains(command, "pipefail") {
			continue
		}
		f := segmentFamily(shellWords(seg.text))
		if f.Exe != "" && !f.Probe && !slices.Contains(out, f) {
			if out = append(out, f); len(out) == maxFamilies {
				break
			}
		}
	}
	return out
}

// FallsBack reports whether a command line runs family f only in
// pipelines followed by || (`pnpm run typecheck | grep x || echo ok`,
// `make check || true`): the line succeeds whether f did or not. False
// when the line runs none of f.
func FallsBack(command string, f Family) bool {
	segs := segments(command)
	ran := false
	for i, seg := range segs {
		if segmentFamily(shellWords(seg.text)) != f {
			continue
		}
		end := i // the pipeline's last command, whose status the line goes on from
		for end < len(segs)-1 && segs[end].piped {
			end++
		}
		if !segs[end].orElse {
			return false
		}
		ran = true
	}
	return ran
}

// FailedFamily is the family of the command that failed in a command
// line. Of its simple commands:
//   - the last one the error names: errText (the failure's output, or
//     the lines of it that say what went wrong) holds its name as a word
//     ("[lint] ERROR task failed" names `mise run lint`, "sed: -e
//     expression #1" names sed), read from its first line that says
//     something went wrong (all of it when none does): the lines before
//     it are often the output of the stages that ran fine, since the one
//     that failed printed last (a commit's summary echoes its message,
//     which names whatever it likes);
//   - else the last one that does something and is no probe, since a
//     chain stops at its first failure and the agent usually puts the
//     command under test last (`sed -i … && python x.py` failing without
//     naming sed is python's failure), but not a report that closes an
//     `&&` chain (`… && git push && git status`): agents end a chain with
//     a look at the state the real work left (status, log, diff, list),
//     which seldom fails, so the stage before it is the one the failure
//     stopped at, or closer to it;
//   - else CommandFamily(command).
func FailedFamily(command, errText string) Family {
	var all []segFamily
	for _, seg := range segments(command) {
		if f := segmentFamily(shellWords(seg.text)); f.Exe != "" {
			all = append(all, segFamily{f, seg.piped, seg.afterAnd && reports(f)})
		}
	}
	if len(all) > 1 {
		if i := namedBy(all, errText); i >= 0 {
			return all[i].Family
		}
	}
	// A piped command's status is hidden unless it is the last of its
	// pipe, so the last unpiped doer goes first; a closing report last.
	for _, pass := range []struct{ piped, report bool }{{false, false}, {true, false}, {true, true}} {
		for i := len(all) - 1; i >= 0; i-- {
			if f := all[i]; !f.Probe && (!f.piped || pass.piped) && (!f.report || pass.report) {
				return f.Family
			}
		}
	}
	return CommandFamily(command)
}

// namedBy is the index of the last of the simple commands that errText
// names as FailedFamily reads names, or -1.
func namedBy(all []segFamily, errText string) int {
	// the failing stage printed last: from the first line that says
	// something went wrong, or all of it when none says so
	from := 0
	for i := 0; i < len(errText); {
		end := strings.IndexByte(errText[i:], '\n')
		if end < 0 {
			end = len(errText) - i
		}
		if errorWord(errText[i : i+end]) {
			from = i
			break
		}
		i += end + 1
	}
	best := -1
	for line := range strings.Lines(errText[from:]) {
		for i := len(all) - 1; i > best; i-- {
			if namesWord(line, all[i].errName()) {
				best = i
				break
			}
		}
		if best == len(all)-1 {
			break
		}
	}
	if best < 0 {
		// no stage's subcommand is named: its program may be ("fatal:
		// not a git repository" after git status), when one stage alone
		// runs it
		for line := range strings.Lines(errText[from:]) {
			for i := len(all) - 1; i >= 0; i-- {
				if exe := path.Base(all[i].Exe); exe != all[i].errName() && namesWord(line, exe) && onlyStage(all, i) {
					return i
				}
			}
		}
	}
	return best
}

// onlyStage reports whether all[i] is the only stage of its program.
func onlyStage(all []segFamily, i int) bool {
	for j := range all {
		if j != i && all[j].Exe == all[i].Exe {
			return false
		}
	}
	return true
}

// reports reports whether a family only shows the state its tool
// keeps: a subcommand that shows, lists or diffs (git status, git log,
// npm ls, docker ps, kubectl describe).
func reports(f Family) bool {
	return familyWords().reports[f.Sub]
}

// segFamily is a simple command's family, whether it was piped, and
// whether it is a report that closes an && chain (FailedFamily).
type segFamily struct {
	Family
	piped  bool
	report bool
}

// errName is the word an error message names the family by: the
// script or module a runner ran, else the subcommand's last word, else
// the executable.
func (f Family) errName() string {
	name := f.Exe
	if f.Sub != "" && !strings.HasPrefix(f.Sub, "-") || strings.HasPrefix(f.Sub, "-m ") {
		name = f.Sub[strings.LastIndexByte(f.Sub, ' ')+1:]
	}
	return path.Base(name)
}

// namesWord reports whether text holds name as a word of its own: not
// inside a longer name ("go" is not in "good" nor in "cargo").
func namesWord(text, name string) bool {
	if len(name) < 2 {
		return false
	}
	for i := 0; ; {
		k := strings.Index(text[i:], name)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(name)
		if (k == 0 || !isNameByte(text[k-1])) && (end == len(text) || !isNameByte(text[end])) {
			return true
		}
		i = k + 1
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// WordsFamily is the family of one simple command given as words with
// their quotes removed, as a command line's segments split them.
func WordsFamily(words []string) Family { return segmentFamily(words) }

// segmentFamily is the family of one simple command, given as words
// with their quotes removed; its Exe is "" for one that only sets up
// (cd, export).
func segmentFamily(words []string) Family {
	if len(words) >= 2 && words[0] == "command" && (words[1] == "-v" || words[1] == "-V") {
		return Family{Exe: "command", Probe: true}
	}
	words = skipWrappers(words)
	if len(words) == 0 {
		return Family{}
	}
	exe := exeName(words[0])
	sets := familyWords()
	if sets.setup[exe] {
		return Family{}
	}
	f := Family{Exe: exe}
	args := words[1:]
	if sets.subcommands[exe] {
		for i := 0; i < len(args); i++ {
			w := args[i]
			if sets.optionArgs[exe+" "+w] {
				i++ // git -C DIR push: DIR is no subcommand
				continue
			}
			if strings.ContainsAny(w, " \t\n") {
				break // a quoted script (bun -e "…", swift -e '…'), no subcommand
			}
			if redirection(w) {
				continue // make 2>&1: where the output goes, no subcommand
			}
			if !strings.HasPrefix(w, "-") {
				f.Sub = w
				if sets.scriptRunners[f.Sub] && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
					f.Sub += " " + args[i+1] // npm run lint: the script is the intent
				}
				break
			}
		}
	}
	if kind := shellKind(exe); kind != "" {
		if cmd, ok := shellRuns(kind, args); ok {
			if inner := CommandFamily(cmd); inner.Exe != "" {
				return inner
			}
		}
	}
	if interpreter(exe) {
		f.Sub = subject(args)
	}
	f.Probe = sets.probes[exe] || isProbe(f, args)
	return f
}

// redirection reports whether a word sends a command's input or output
// somewhere (2>&1, >/dev/null, &>log, <in): no command nor subcommand.
func redirection(w string) bool {
	w = strings.TrimLeft(w, "0123456789")
	return strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "&>")
}

// exeName is how a family names an executable: a relative path kept as
// written (`bin/test`, `tests/runtests.py`: a project's own runner is
// not the shell's `test`), else the base name (`/usr/bin/rg`,
// `.venv/bin/pytest`, `node_modules/.bin/jest` are rg, pytest, jest);
// the program `$(which X)` finds is X.
func exeName(w string) string {
	w = strings.TrimPrefix(w, "./")
	for _, look := range []string{"$(which ", "$(command -v "} {
		if inner, ok := strings.CutPrefix(w, look); ok && strings.HasSuffix(inner, ")") {
			w = strings.TrimSpace(strings.TrimSuffix(inner, ")")) // $(which python3) is python3
		}
	}
	if WindowsDrive(w) {
		return path.Base(strings.ReplaceAll(w, "\\", "/")) // C:\Program Files\…\MSBuild.exe is MSBuild.exe
	}
	if !strings.Contains(w, "/") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, "$") {
		return path.Base(w)
	}
	for _, dir := range strings.Split(path.Dir(w), "/") {
		if strings.HasPrefix(dir, ".") || strings.Contains(dir, "venv") || dir == "node_modules" {
			return path.Base(w)
		}
	}
	return w
}

// WindowsSeparator reports whether a backslash before c, outside quotes
// and inside a word, separates a Windows path's parts rather than
// escaping c: no POSIX shell user escapes a letter, a digit or _ there
// (\rm at a word's start skips an alias, and is rm).
func WindowsSeparator(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// WindowsDrive reports whether a path starts at a drive (C:\, D:/).
func WindowsDrive(w string) bool {
	return len(w) > 2 && (w[2] == '\\' || w[2] == '/') && DriveLetter(w)
}

// DriveLetter reports whether w starts with a drive's letter and colon
// ("C:").
func DriveLetter(w string) bool {
	return len(w) >= 2 && w[1] == ':' && ('A' <= w[0] && w[0] <= 'Z' || 'a' <= w[0] && w[0] <= 'z')
}

// interpreter reports whether exe runs a script it is given: its
// subject, not the interpreter, is what the call does.
func interpreter(exe string) bool {
	if strings.HasPrefix(exe, "python") || strings.HasPrefix(exe, "pypy") {
		return true
	}
	return familyWords().interpreters[exe]
}

// subject is what an interpreter runs: "-m MODULE", the inline-script
// flag ("-c" for python -c, "-e" for node -e: the script itself is no
// command), or the script's path as written; "" for none.
func subject(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m" && i+1 < len(args):
			return "-m " + args[i+1]
		case a == "-c" || a == "-e" || a == "-p" || a == "--eval" || a == "--print" || a == "-r" && i+1 < len(args) && strings.Contains(args[i+1], "\n"):
			return a
		case a == "-" || a == "--" || strings.HasPrefix(a, "<"):
			return "" // the script comes on stdin (python3 <<'EOF')
		case redirection(a):
			continue
		case strings.HasPrefix(a, "-"):
			continue
		}
		if strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") || strings.HasPrefix(a, "$") {
			return path.Base(a) // /tmp/x123/check.py: the place varies, the script does not
		}
		return strings.TrimPrefix(a, "./")
	}
	return ""
}

// segment is one simple command of a command line.
type segment struct {
	text string
	// piped: its output goes into another command, whose exit status the
	// shell reports instead of its own.
	piped bool
	// orElse: it is followed by ||; the command after it runs when it
	// fails, and the line's status is that one's.
	orElse bool
	// afterAnd: it follows &&; it runs only when the one before worked.
	afterAnd bool
}

// segments splits a command at the shell's command separators (&&, ||,
// ;, &, |, newlines) outside quotes and $(…). A heredoc's body is text,
// not commands: it is skipped to its closing delimiter, and a comment to
// the end of its line. Redirections such as 2>&1 are not separators.
func segments(command string) []segment {
	var out []segment
	start := 0
	and := false // the last separator was &&
	add := func(end int, piped, orElse, andNext bool) {
		if t := strings.TrimSpace(command[start:end]); t != "" {
			out = append(out, segment{text: t, piped: piped, orElse: orElse, afterAnd: and})
		}
		and = andNext
	}
	var quote byte       // ' or " while inside quotes
	depth := 0           // $( … ) and ` … ` nesting
	var heredoc []string // delimiters of the heredocs opened on this line
	for i := 0; i < len(command); i++ {
		c := command[i]
		next := byte(0)
		if i+1 < len(command) {
			next = command[i+1]
		}
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
			continue
		case c == '\\':
			i++ // an escaped character
			continue
		case quote == '"':
			if c == '"' {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		case c == '<' && next == '<' && (i+2 >= len(command) || command[i+2] != '<'):
			if d, end := heredocDelimiter(command, i+2); d != "" {
				heredoc = append(heredoc, d)
				i = end - 1
			} else {
				i++
			}
			continue
		case c == '\n' && len(heredoc) > 0:
			add(i, false, false, false)
			i = skipHeredocs(command, i+1, heredoc) - 1
			heredoc = nil
			start = i + 1
			continue
		case c == '#' && depth == 0 && (i == 0 || strings.IndexByte(" \t\n;&|(", command[i-1]) >= 0):
			// a comment, to the end of its line: no command
			add(i, false, false, false)
			for i+1 < len(command) && command[i+1] != '\n' {
				i++
			}
			start = i + 1
			continue
		case c == '$' && next == '(':
			depth++
			i++
			continue
		case c == '`':
			if depth > 0 && i > 0 {
				depth--
			} else {
				depth++
			}
			continue
		case c == ')' && depth > 0:
			depth--
			continue
		case depth > 0:
			continue
		}
		switch {
		case c == '&' && (i > 0 && command[i-1] == '>' || next == '>'):
			// 2>&1, &>file: a redirection
		case c == '|' && next == '|', c == '&' && next == '&':
			add(i, false, c == '|', c == '&')
			i++
			start = i + 1
		case c == '|':
			add(i, true, false, false)
			if next == '&' { // |& pipes stderr too
				i++
			}
			start = i + 1
		case c == ';', c == '&', c == '\n':
			add(i, false, false, false)
			start = i + 1
		}
	}
	add(len(command), false, false, false)
	return out
}

// heredocDelimiter reads the delimiter of a heredoc whose << ends at i
// (`<<EOF`, `<<-'EOF'`, `<< "END"`) and returns it with the index past
// it; "" when none follows.
func heredocDelimiter(command string, i int) (string, int) {
	if i < len(command) && command[i] == '-' {
		i++
	}
	for i < len(command) && (command[i] == ' ' || command[i] == '\t') {
		i++
	}
	start := i
	for i < len(command) && !strings.ContainsRune(" \t\n;&|<>()", rune(command[i])) {
		i++
	}
	d := strings.NewReplacer("'", "", `"`, "", `\`, "").Replace(command[start:i])
	return d, i
}

// skipHeredocs returns the index past the bodies of the heredocs whose
// delimiters are ds, in order, starting at i; the end of command when
// one is not closed.
func skipHeredocs(command string, i int, ds []string) int {
	for _, d := range ds {
		for i < len(command) {
			end := strings.IndexByte(command[i:], '\n')
			line := command[i:]
			if end >= 0 {
				line = command[i : i+end]
				i += end + 1
			} else {
				i = len(command)
			}
			if strings.TrimLeft(strings.TrimSpace(line), "\t") == d || strings.TrimSpace(line) == d+")" {
				break
			}
		}
	}
	return i
}

// shellWords splits a simple command into words as the shell would, with
// quotes removed; a quoted string is one word, whatever it holds, and so
// is a command substitution (PW=$(terraform output -raw pw)).
func shellWords(text string) []string {
	var out []string
	var w strings.Builder
	in := false // a word has started
	var quote byte
	depth := 0 // inside $( … ): one word, whatever blanks it holds
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '$' && quote == 0 && i+1 < len(text) && text[i+1] == '(':
			depth++
			w.WriteString("$(")
			in = true
			i++
		case c == ')' && quote == 0 && depth > 0:
			depth--
			w.WriteByte(c)
		case depth > 0 && quote == 0 && (c == ' ' || c == '\t' || c == '\n'):
			w.WriteByte(c)
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(text) && text[i+1] == '\n':
			i++ // a continued line: the shell drops both
		case c == '\\' && in && i+1 < len(text) && WindowsSeparator(text[i+1]):
			w.WriteString(text[i : i+2]) // C:\Windows\…: a Windows path, as PowerShell and cmd read it
			in = true
			i++
		case c == '\\' && i+1 < len(text):
			i++
			w.WriteByte(text[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, w.String())
	}
	return out
}

// skipWrappers drops leading variable assignments and commands that run
// another one; a wrapper given no command is the command.
func skipWrappers(words []string) []string {
	for len(words) > 0 {
		w := strings.TrimLeft(words[0], "({!") // a subshell, a group, a negation
		if w == "" {
			words = words[1:]
			continue
		}
		words[0] = w
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="), redirection(w):
			words = words[1:]
		case familyWords().wrappers[w]:
			bare := words
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				if familyWords().wrapperOptionArgs[w+" "+words[0]] && len(words) > 1 {
					words = words[1:] // a flag's value: env -u NAME, sudo -u USER
				}
				words = words[1:] // the wrapper's own flags
			}
			if w == "timeout" && len(words) > 0 {
				words = words[1:] // its duration
			}
			if len(words) == 0 {
				return bare // nothing to run: the wrapper is the command (`timeout 10` as a sleep)
			}
		case (w == "uv" || w == "poetry" || w == "pipenv" || w == "pdm") && len(words) > 1 && words[1] == "run",
			w == "bundle" && len(words) > 1 && words[1] == "exec":
			words = words[2:]
		default:
			return words
		}
	}
	return words
}

// familyWords are the word sets a family is read with. Built on first
// use: a PreToolUse call, a prompt or a session start never reads a
// family, and maps built at init cost every call of the hook.
var familyWords = sync.OnceValue(func() *wordSets {
	return &wordSets{
		wrappers: setOf("sudo", "env", "time", "nice", "nohup", "timeout", "command", "exec", "npx", "bunx", "pnpx", "xargs", "stdbuf",
			"if", "then", "else", "elif", "do", "while", "until"),
		wrapperOptionArgs: setOf("env -u", "env --unset", "env -C", "env --chdir", "sudo -u", "sudo -g", "sudo -h",
			"nice -n", "timeout -s", "timeout -k", "timeout --signal", "timeout --kill-after", "xargs -I", "xargs -n",
			"xargs -P", "xargs -L", "xargs -d", "xargs -a", "xargs -E", "xargs -s"),
		optionArgs: setOf("git -C", "git -c", "go -C", "make -C", "make -f", "docker -H", "docker --context", "kubectl -n",
			"kubectl --namespace", "kubectl --context", "npm --prefix", "npm -w", "npm --workspace", "pnpm -C", "pnpm --dir",
			"pnpm -F", "pnpm --filter", "yarn --cwd", "cargo --manifest-path", "terraform -chdir"),
		scriptRunners: setOf("run", "run-script", "exec", "task", "x"),
		setup: setOf("cd", "pushd", "popd", "export", "source", ".", "set", "unset", "sleep", "true", ":", "mkdir",
			"fi", "done", "esac", "}", "exit", "return", "break", "continue", "for", "case", "select"),
		subcommands: setOf("git", "npm", "pnpm", "yarn", "bun", "deno", "go", "cargo", "docker", "podman", "kubectl", "helm",
			"gh", "glab", "pip", "pip3", "uv", "poetry", "conda", "brew", "apt", "apt-get", "dnf", "yum", "systemctl", "terraform",
			"tofu", "aws", "gcloud", "az", "dotnet", "mvn", "gradle", "make", "just", "rake", "rails", "mix", "stack", "cabal",
			"nix", "composer", "rustup", "flutter", "swift", "gem", "bundle", "heroku", "fly", "vercel", "supabase", "wrangler",
			"mise", "task", "nx", "turbo", "pixi", "hatch", "tox", "nox", "invoke"),
		probes: setOf("which", "whereis", "type", "ls", "ll", "la", "cat", "head", "tail", "less", "more", "pwd", "echo",
			"printf", "file", "stat", "wc", "tree", "printenv", "man", "whoami", "id", "uname", "date", "hostname", "realpath",
			"readlink", "dirname", "basename", "du", "df"),
		reports:      setOf("status", "log", "logs", "diff", "show", "list", "ls", "ps", "view", "info", "describe"),
		interpreters: setOf("node", "ruby", "perl", "php", "bash", "sh", "zsh", "dash", "tsx", "ts-node", "Rscript", "lua", "julia"),
	}
})

// wordSets are the sets familyWords builds.
type wordSets struct {
	// wrappers run another command: sudo, env, time, npx, xargs, and
	// the shell's keywords before a command.
	wrappers map[string]bool
	// wrapperOptionArgs are the wrappers' options that take the next word.
	wrapperOptionArgs map[string]bool
	// optionArgs are options before a subcommand that take the next word.
	optionArgs map[string]bool
	// scriptRunners are subcommands that run a named script or task: the
	// name belongs to the family (npm run lint and npm run test differ).
	scriptRunners map[string]bool
	// setup are commands that prepare for the real one in the same line,
	// the heads of loops and cases (for f in …, case $x in), the words
	// that close a compound command (fi, done, esac, }) and the builtins
	// that leave one (exit, return, break): they run nothing.
	setup map[string]bool
	// subcommands are tools whose second word names what they do.
	subcommands map[string]bool
	// probes are commands that only look around.
	probes map[string]bool
	// reports are subcommands that only show what a tool keeps (git
	// status, npm ls, docker ps).
	reports map[string]bool
	// interpreters run a script they are given (besides python*, pypy*).
	interpreters map[string]bool
}

// isProbe reports whether the arguments ask a tool about itself: --help,
// --version, a help or version subcommand, `command -v`.
func isProbe(f Family, args []string) bool {
	if f.Sub == "help" || f.Sub == "version" || f.Sub == "--version" {
		return true
	}
	for _, a := range args {
		if a == "--help" || a == "--version" || a == "-help" {
			return true
		}
	}
	return len(args) == 1 && (args[0] == "-h" || args[0] == "-v" || args[0] == "-V")
}

// setOf is a set of words.
func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
