package scanner

import (
	"slices"
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
//   - reading the file a failed edit was about, when the session had not
//     read it before (rereads, unread).
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
	if flag := hintedFlag(failed, fix, w.res); flag != "" {
		return "the same command worked with `" + flag + "`, as the error's output suggests", true
	}
	if vars := envAdded(failed, fix); len(vars) > 0 {
		return "the same command worked with `" + strings.Join(vars, " ") + "` set", true
	}
	return "", false
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
// that the failure's output names as a word ("hint: Use -f if you really
// want to add them"), or "". Asking for help (--help, a usage error's
// "For more information, try '--help'") is looking, not a fix.
func hintedFlag(failed, fix string, res *Result) string {
	d, ok := diffCommands(failed, fix)
	if !ok || d.exe != d.gexe || d.sub != d.gsub || d.prelude != nil || d.wrapper != nil || res == nil {
		return ""
	}
	out := strings.ToLower(errorBody(res.Output[:min(len(res.Output), addressesHead)]))
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

// patchTool is the patch tool's name where the reader keeps it (opencode's
// apply_patch, whose patchText it does not read); Codex's patches are read
// as Edit or Write.
const patchTool = "apply_patch"

// rereads reports whether a call that worked looks at the file a watched
// failed edit (Edit, Write, a patch) was about: a Read of its path or of
// a path its error names, or a shell command that names the file and
// writes nothing (cat, sed -n, nl: no redirection into a file, no
// in-place flag). An edit that fails because what it expected is not in
// the file (the file changed since the agent read it, or was never read)
// gets past the error by reading the file first.
func rereads(w *errWatch, c *Call) bool {
	f := w.rec.call
	if !slices.Contains(lessons.WritingTools, f.Tool) && f.Tool != patchTool {
		return false
	}
	if c.Tool != "Bash" {
		return lessons.CanonicalTool(c.Tool) == "Read" && c.Path != "" && (c.Path == f.Path || strings.Contains(w.res.Output, c.Path))
	}
	if f.Path == "" {
		return false // a patch whose file the reader did not take: only a Read of a path its error names says it
	}
	looked := false
	for _, seg := range segments(c.Command) {
		for _, a := range seg[1:] {
			switch {
			case a == "-i" || strings.HasPrefix(a, "-i.") || a == "--in-place" || strings.HasPrefix(a, "--write"),
				redirection.MatchString(a) && strings.Contains(a, ">") && !strings.Contains(a, "&"):
				return false // it may have changed the file
			case namesFile(a, f.Path):
				looked = true
			}
		}
	}
	return looked
}

// namesFile reports whether a shell word names the file at path: the
// path itself, or a path relative to a folder it is in.
func namesFile(word, path string) bool {
	return word == path || len(word) > 1 && strings.HasSuffix(path, "/"+strings.TrimPrefix(word, "./"))
}

// maxUsed caps the files a session remembers its file tools worked on.
const maxUsed = 512

// useFile remembers the file a file tool worked on, or the words of a
// shell command that may name files (cat, sed -n: Codex reads files so).
func (a *analyzer) useFile(c *Call) {
	add := func(p string) {
		if len(a.used) < maxUsed && !slices.Contains(a.used, p) {
			a.used = append(a.used, p)
		}
	}
	if c.Tool != "Bash" {
		if c.Path != "" {
			add(c.Path)
		}
		return
	}
	for _, seg := range segments(c.Command) {
		for _, w := range seg[1:] {
			if strings.ContainsAny(w, "/.") && !strings.HasPrefix(w, "-") && !redirection.MatchString(w) {
				add(w)
			}
		}
	}
}

// unread reports whether a failed edit (Edit, Write, a patch) was of a
// file no file tool of the session had worked on before: its path, or a
// path its error names when the reader did not take its file. An edit of
// a file the session knows that fails on stale lines is part of editing;
// one of a file it never read was written from memory.
func (a *analyzer) unread(c *Call, r *Result) bool {
	if !slices.Contains(lessons.WritingTools, c.Tool) && c.Tool != patchTool {
		return false
	}
	if c.Path != "" {
		return !slices.ContainsFunc(a.used, func(p string) bool { return namesFile(p, c.Path) })
	}
	return !slices.ContainsFunc(a.used, func(p string) bool { return strings.HasPrefix(p, "/") && strings.Contains(r.Output, p) })
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
