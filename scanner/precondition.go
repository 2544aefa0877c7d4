package scanner

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// Precondition fixes: a call fails; later calls change state (write a
// file, create a directory, install a dependency, run a migration or a
// setup step, export a variable, start a service); then the same call,
// or one of its family, succeeds. Nothing about the command changed, so
// the retry heuristic learns nothing; the lesson is "before X, do Y",
// naming the state changes that made the difference: those the error
// named (the missing module, file, table or package), else the few
// setup steps between when no edit of the task's code came between (an
// edit that fixes a failing test is the task, not a precondition).

// KindPrecondition is a failure that a change of state fixed.
const KindPrecondition = "precondition"

// Bounds of what a failure waits for.
const (
	preconditionWindow = 40 // calls after a failure in which it may be fixed
	maxWaiting         = 8  // failures waiting at once
	maxChanges         = 12 // state changes remembered per failure
	maxSetupSteps      = 2  // unnamed setup steps a lesson may name
)

// stateChange is a call that changed what later calls see.
type stateChange struct {
	call  *Call
	setup bool // a shell step, not an edit of a file
	fixer bool // a step that rewrote the code by itself (fixing)
}

// waiting is a failed shell call that no retry has fixed yet.
type waiting struct {
	rec     *callRec
	res     *Result
	family  string
	changes []stateChange
	over    bool // more changes than remembered: no lesson can name them
}

// setupSub are subcommands that install, build or prepare, whatever the
// tool (npm install, go get, cargo add, python manage.py migrate).
var setupWord = regexp.MustCompile(`^(install|i|ci|add|get|sync|require|migrate|makemigrations|upgrade|setup|init|seed|createdb|generate|codegen|build|compile|bootstrap|prepare|up|start|restart|link|activate)$`)

// setupExe are commands that change state by themselves.
var setupExe = map[string]bool{
	"mkdir": true, "touch": true, "ln": true, "chmod": true, "export": true, "source": true, ".": true,
	"setx": true, "createdb": true, "nohup": true, "systemctl": true, "service": true,
}

// settingUp reports whether a shell command changes state: it creates,
// installs, migrates, builds, exports or starts something.
func settingUp(cmd string) bool {
	if strings.HasSuffix(strings.TrimSpace(cmd), "&") {
		return true // a service started in the background
	}
	for _, seg := range segments(cmd) {
		if len(seg) == 0 {
			continue
		}
		if setupExe[path.Base(seg[0])] {
			return true
		}
		exe, sub := commandHead(seg)
		if setupExe[exe] || sub != "" && setupWord.MatchString(sub) {
			return true
		}
		for _, w := range seg[1:min(len(seg), 3)] {
			if !strings.HasPrefix(w, "-") && setupWord.MatchString(w) {
				return true // python manage.py migrate, bin/rails db:migrate
			}
		}
	}
	return false
}

// fixerWord is a subcommand or script that rewrites the code by itself:
// a formatter, or a linter's fixer (cargo fmt, biome format, mix format,
// npm run lint:fix, pnpm format:write).
var fixerWord = regexp.MustCompile(`^(fmt|format|fix)$|[:-](fix|format|fmt|write)$`)

// fixerFlags ask a checker to fix what it finds (eslint --fix, prettier
// --write, biome check --write, ruff check --fix).
var fixerFlags = []string{"--fix", "--write", "--apply"}

// fixing reports whether a shell command rewrites the code by itself: a
// formatter or a linter's fixer, by its subcommand, script or flag. Such
// a step getting a check past its failure is a precondition of the
// check whatever the error said (precondition).
func fixing(cmd string) bool {
	if !strings.Contains(cmd, "fix") && !strings.Contains(cmd, "fmt") && !strings.Contains(cmd, "format") && !strings.Contains(cmd, "write") &&
		!strings.Contains(cmd, "--apply") {
		return false // no word of a fixer: most commands, unparsed
	}
	for _, seg := range segments(cmd) {
		if len(seg) == 0 || slices.ContainsFunc(seg, checkOnly) {
			continue
		}
		if _, sub := commandHead(seg); sub != "" && fixerWord.MatchString(sub) {
			return true
		}
		args := seg[1:]
		if j := slices.Index(seg, "-m"); j >= 1 && j <= 2 && j+2 <= len(seg) {
			args = seg[j+2:] // a module run by its interpreter (python -m ruff format): its own words
		}
		for i, w := range args {
			if slices.Contains(fixerFlags, w) || i < 3 && !strings.HasPrefix(w, "-") && fixerWord.MatchString(w) {
				return true
			}
		}
	}
	return false
}

// checkOnly reports whether a word asks a formatter or fixer only to
// check, rewriting nothing (ruff format --check, cargo fmt --check,
// prettier --list-different, black --diff).
func checkOnly(w string) bool {
	switch w {
	case "--check", "--diff", "--dry-run", "--list-different":
		return true
	}
	return false
}

// waitFor remembers a failed shell call (not a probe) until a call of its family
// succeeds.
func (a *analyzer) waitFor(rec *callRec, r *Result) {
	c := rec.call
	if c.Tool != "Bash" || r.Timeout {
		return
	}
	fam := failedFamily(c.Command, r)
	if fam.Exe == "" || fam.Probe {
		return
	}
	key := fam.String()
	a.waiting = slices.DeleteFunc(a.waiting, func(w *waiting) bool { return w.family == key })
	a.waiting = append(a.waiting, &waiting{rec: rec, res: r, family: key})
	if len(a.waiting) > maxWaiting {
		a.waiting = a.waiting[1:]
	}
}

// succeeded sees a call that worked: a change of state is remembered by
// every waiting failure, and a call of a waiting failure's family
// settles it, with a lesson when state changes came between.
func (a *analyzer) succeeded(rec *callRec) {
	a.knownSaw(rec)
	if len(a.waiting) == 0 && a.changed {
		return
	}
	a.waiting = slices.DeleteFunc(a.waiting, func(w *waiting) bool { return rec.seq-w.rec.seq > preconditionWindow })
	c := rec.call
	if len(a.waiting) > 0 && c.Tool == "Bash" {
		fam := lessons.CommandFamily(c.Command).String()
		for i := 0; i < len(a.waiting); i++ {
			w := a.waiting[i]
			same := c.Command == w.rec.call.Command || sameCall(w.rec.call, c)
			if !same && (fam != w.family || settingUp(c.Command) || fixing(c.Command)) {
				continue // another family, or a setup or fixing step of this one (manage.py migrate after manage.py test, cargo fmt after cargo fmt --check); the same command again settles it whatever stage its failure was named for (a chain's check)
			}
			a.waiting = slices.Delete(a.waiting, i, i+1)
			i--
			w.rec.fixed = true
			if !w.over && !a.found(w.rec.id) {
				a.precondition(w, c.Command)
			}
		}
	}
	change := stateChange{call: c}
	switch {
	case c.Path != "" && writing(c.Tool):
	case c.Tool == "Bash" && fixing(c.Command):
		change.setup, change.fixer = true, true
	case c.Tool == "Bash" && settingUp(c.Command):
		change.setup = true
	default:
		return
	}
	a.changed = true
	for _, w := range a.waiting {
		if len(w.changes) == maxChanges {
			w.over = true
			continue
		}
		w.changes = append(w.changes, change)
	}
}

// found reports whether a finding about call id exists already (a retry
// that fixed it by changing the command).
func (a *analyzer) found(id string) bool {
	for i := len(a.findings) - 1; i >= 0 && i >= len(a.findings)-maxOpen; i-- {
		if a.findings[i].Call == id {
			return true
		}
	}
	return false
}

// environmental matches errors about the world the call ran in rather
// than about the code it ran: something missing (a module, file, table,
// command or variable), a service not there, an encoding or locale, a
// permission. Only such a failure can be fixed by a change of state; a
// lint error, a type error or a failing assertion is fixed by the task's
// own edits.
var environmental = regexp.MustCompile(`(?i)(not found|no such|does not exist|doesn't exist|cannot find|can't find|could not find|(?:could not|cannot|can't|unable to) locate|no module named|cannot import|missing|not installed|is not set|not defined in the environment|connection refused|econnrefused|could not connect|is not running|unicode(en|de)codeerror|codec can't|locale|permission denied|unknown database|no such table|relation \S+ does not exist|not initialized|not a git repository|run .{1,40} first)`)

// precondition emits the lesson of a failure that state changes fixed.
func (a *analyzer) precondition(w *waiting, rerun string) {
	if !slices.ContainsFunc(w.changes, func(ch stateChange) bool { return ch.setup || ch.call.Tool == "Write" }) {
		return // nothing changed, or only the task's edits: no need to read the error
	}
	problem := w.res.errorText()
	errText := strings.ToLower(problem)
	if problem == "" {
		return
	}
	// Only an error about the world the call ran in is fixed by a change
	// of state, but for a check a fixer got past: what it found was the
	// fixer's to fix (formatting), whatever the error said.
	env := environmental.MatchString(errText)
	if !env && !slices.ContainsFunc(w.changes, func(ch stateChange) bool { return ch.fixer }) {
		return // neither the world nor a fixer: the task's own work
	}
	var named, setup []stateChange
	edits, fixers := false, true
	// a setup step of the failing command's family is one only when the
	// failed call was none (a script's init run again by its right path
	// is the retry)
	failedSetsUp := settingUp(w.rec.call.Command)
	for _, ch := range w.changes {
		switch {
		case ch.call.Tool == "Bash" && sameFamily(ch.call.Command, w.family) && (failedSetsUp || !settingUp(ch.call.Command)) && !ch.fixer:
			continue // the failing command again, in another form
		case ch.call.Tool == "Write" && namesFile(w.rec.call.Command, ch.call.Path):
			return // it looked at a file it went on to write: the task's own work, whatever else it ran
		case ch.call.Tool == "Bash" && alreadyRan(w.rec.call.Command, ch.call.Command):
			continue // the failed command ran it already: no step it lacked
		case ch.setup && !ch.fixer && strings.HasPrefix(headWords(ch.call.Command)+" ", "git "):
			edits = true // what the repository records (staged, a worktree, a branch, a commit) is the task's work, not what a command needs to run, even where the error names it
		case ch.fixer && !env:
			setup = append(setup, ch) // a formatter on the files the check named is the check's fixer, not a change of the world it named
		case (ch.setup || ch.call.Tool == "Write") && namedBy(errText, ch.call):
			named = append(named, ch)
		case ch.setup:
			setup = append(setup, ch)
			fixers = fixers && ch.fixer
		default:
			edits = true
		}
	}
	if !env && (edits || len(named) > 0 || len(setup) == 0 || !fixers) {
		return
	}
	steps := named
	if len(steps) == 0 {
		if edits || len(setup) == 0 || len(setup) > maxSetupSteps {
			return // the task's own edits, or too many steps to say which
		}
		steps = setup
	}
	var did, ran []string
	wrote := false
	for _, s := range steps {
		wrote = wrote || s.call.Tool == "Write"
		if f := fixerStep(s.call.Command); s.fixer && f != "" {
			did = append(did, "run `"+f+"`")
		} else {
			did = append(did, describeChange(s.call))
		}
		ran = append(ran, s.call.Command)
	}
	c := w.rec.call
	// the steps the error said to take, or the check's own fix mode
	told := !slices.Contains(ran, "") && (echoes(w.res.Output, c.Command, strings.Join(ran, " ")) ||
		!slices.ContainsFunc(ran, func(step string) bool { return !checkUndone(c.Command, step) }))
	a.findings = append(a.findings, finding{
		Kind: KindPrecondition, Line: w.rec.line, UID: w.rec.uid, Tool: "Bash", Trigger: c.Command, Stage: failedStage(c.Command, w.family, ran),
		Call: w.rec.id, Change: strings.Join(did, "; "),
		Problem:  worldFirst(problem),
		Solution: "Before `" + shownCommand(c.Command, 200) + "`, " + strings.Join(did, ", then ") + ". It failed until then, and `" + shownCommand(rerun, 200) + "` worked after.",
		Signals:  Signals{FixConfirmed: true, Causal: len(named) > 0, Reminds: told, Wrote: wrote},
	})
}

// failedStage is the simple command of cmd that failed, when it is not
// the command line's first that does something (doerHead), else "": the
// one whose check a step ran again in its fix mode (`cargo fmt --check`
// in `cargo fmt --check && cargo test`, fixed by `cargo fmt`), else the
// one of family, the failed family FailedFamily read.
func failedStage(cmd, family string, steps []string) string {
	segs := segments(cmd)
	at := slices.IndexFunc(segs, func(seg []string) bool {
		return slices.ContainsFunc(steps, func(step string) bool { return checkUndone(strings.Join(seg, " "), step) })
	})
	if at < 0 {
		at = slices.IndexFunc(segs, func(seg []string) bool { return lessons.WordsFamily(seg).String() == family })
	}
	if at < 0 {
		return ""
	}
	firstExe, firstSub := doerHead(cmd)
	if exe, sub := commandHead(segs[at]); exe == firstExe && sub == firstSub {
		return ""
	}
	return strings.Join(segs[at], " ")
}

// checkUndone reports whether a step runs one of a failed command's
// simple commands again with only some of its options (cargo fmt after
// cargo fmt --check, black src after black --check src): the check's
// own fix mode, whose work the check's failure printed (the diff), as an
// error that names its fix does; a cd before the step is where it ran.
// A fixer of its own name (bun run lint:fix after bun run lint) is a
// step the project set up, and a lesson.
func checkUndone(failed, step string) bool {
	ss := slices.DeleteFunc(segments(redirect.ReplaceAllString(step, " ")), func(s []string) bool { return len(s) == 0 || s[0] == "cd" })
	if len(ss) != 1 {
		return false
	}
	exe, sub := commandHead(ss[0])
	args := headArgs(ss[0])
	for _, seg := range segments(redirect.ReplaceAllString(failed, " ")) {
		if e, s := commandHead(seg); e != exe || s != sub || exe == "" {
			continue
		}
		had := headArgs(seg)
		if len(args) < len(had) && !slices.ContainsFunc(args, func(a string) bool { return !slices.Contains(had, a) }) {
			return true
		}
	}
	return false
}

// worldFirst is an error text with its first line about the world the
// call ran in (what environmental matched: the missing module, the
// unset variable) moved to the front: that line is what the lesson is
// about, and the one its error trigger is made of when the trigger is
// narrowed to its error (errorHeadline), rather than a runner's banner
// ("# Unhandled error between tests") that comes before it.
func worldFirst(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if environmental.MatchString(strings.ToLower(l)) && namedError.MatchString(l) {
			if i == 0 {
				return text
			}
			return l + "\n" + strings.Join(slices.Delete(lines, i, i+1), "\n")
		}
	}
	return text
}

// sameFamily reports whether any simple command of cmd is of family.
func sameFamily(cmd, family string) bool {
	for _, seg := range segments(cmd) {
		if lessons.CommandFamily(strings.Join(seg, " ")).String() == family {
			return true
		}
	}
	return false
}

// alreadyRan reports whether every simple command of step is one that the
// failed command ran too: doing it first is doing again what the failed
// call did, not the step it lacked.
func alreadyRan(failed, step string) bool {
	ran := segments(failed)
	steps := segments(step)
	return len(steps) > 0 && !slices.ContainsFunc(steps, func(s []string) bool {
		return !slices.ContainsFunc(ran, func(r []string) bool { return slices.Equal(r, s) })
	})
}

// namedBy reports whether an error names what a change made: the file,
// its stem or folder (a module), or a word of the command (the package
// installed, the variable exported, the folder created).
func namedBy(errText string, c *Call) bool {
	if c.Path != "" {
		dir, base := path.Split(strings.ToLower(c.Path))
		stem := strings.TrimSuffix(base, path.Ext(base))
		if said(errText, base) || len(stem) >= 3 && !strings.HasPrefix(stem, "__") && containsWord(errText, stem) {
			return true
		}
		parent := path.Base(strings.TrimSuffix(dir, "/"))
		return strings.HasPrefix(stem, "__") && len(parent) >= 3 && containsWord(errText, parent)
	}
	for _, seg := range segments(c.Command) {
		exe, sub := commandHead(seg)
		for _, w := range seg {
			w = strings.ToLower(w)
			if k, _, ok := strings.Cut(w, "="); ok {
				w = k
			}
			if w == exe || w == sub || strings.HasPrefix(w, "-") || len(w) < 3 {
				continue
			}
			if containsWord(errText, w) || containsWord(errText, path.Base(w)) {
				return true
			}
		}
	}
	return false
}

// namesFile reports whether a command names the file at path p as one
// of its words: by the path, or by its end from a folder of it
// (cmd/app/main.go for /src/app/cmd/app/main.go).
func namesFile(cmd, p string) bool {
	if p == "" {
		return false
	}
	for _, seg := range segments(cmd) {
		for _, w := range seg {
			w = strings.TrimPrefix(w, "./")
			if w != "" && (w == p || strings.HasSuffix(p, "/"+w) && strings.Contains(w, "/") || path.Base(p) == w) {
				return true
			}
		}
	}
	return false
}

// describeChange says what a state change did, in a few words.
func describeChange(c *Call) string {
	switch c.Tool {
	case "Bash":
		return "run `" + shownCommand(shownStep(c.Command), 160) + "`"
	case "Write":
		return "create " + c.Path
	}
	switch {
	case c.Path == "":
		return "call `" + c.Tool + "`" // another tool (toolStep)
	case !writing(c.Tool):
		return strings.ToLower(c.Tool) + " " + c.Path // the file the failed call needed read (toolStep)
	}
	return "edit " + c.Path
}

// fixerStep is the simple command of a fixing step that rewrites the
// code, without the files and folders it was given nor its output
// shaping (`ruff format src/a.py 2>&1` is `ruff format`): a formatter run
// on this task's files is the formatter the check needs run whatever
// files the next task changes, and the lesson of one session is that of
// the next; several are joined by &&. "" when no simple command of cmd
// fixes.
func fixerStep(cmd string) string {
	var fixers []string
	for _, seg := range segments(cmd) {
		if len(seg) == 0 || !fixing(strings.Join(seg, " ")) {
			continue
		}
		words := []string{seg[0]}
		for _, w := range seg[1:] {
			if !redirection.MatchString(w) && !operandPath(w) {
				words = append(words, w)
			}
		}
		if f := strings.Join(words, " "); !slices.Contains(fixers, f) {
			fixers = append(fixers, f)
		}
	}
	return strings.Join(fixers, " && ")
}

// operandPath reports whether a command's word names files or folders:
// a path, a glob, "." or a file name with an extension.
func operandPath(w string) bool {
	return !strings.HasPrefix(w, "-") && (w == "." || w == ".." || strings.ContainsAny(w, "/\\*") || fileName.MatchString(w))
}

// Output shaping at a step's end (lessons name the step, not how its
// output was shown): a redirection of its streams, a last pipeline stage
// that shows part of it.
var (
	trailingRedirect = regexp.MustCompile(`\s+(?:2>&1|[12]?>\s*/dev/null)\s*$`)
	trailingViewer   = regexp.MustCompile(`\s*\|\s*(?:head|tail)(?:\s+-{1,2}[a-z]*=?\s*\d*)*\s*$`)
)

// shownStep is a one-line command without its output shaping
// (`bun install 2>&1 | tail -5` is `bun install`), else as it is.
func shownStep(cmd string) string {
	if strings.Contains(cmd, "\n") {
		return cmd
	}
	for {
		s := trailingViewer.ReplaceAllString(trailingRedirect.ReplaceAllString(cmd, ""), "")
		if s == cmd || s == "" {
			return cmd
		}
		cmd = s
	}
}

// failedFamily is the family of the command of a failed call that
// failed: for a chain, the one the error names (lessons.FailedFamily);
// a single command needs no reading of the error.
func failedFamily(cmd string, r *Result) lessons.Family {
	if f, ok := killFamily(&Call{Tool: "Bash", Command: cmd}, r.ExitCode); ok {
		return f // it ended its own shell
	}
	if !strings.ContainsAny(cmd, "|;&\n") {
		return lessons.CommandFamily(cmd)
	}
	// the raw head of the output names the command as well as the
	// trimmed lines do, without the cost of trimming
	return lessons.FailedFamily(cmd, head(r.Output, familyHead))
}
