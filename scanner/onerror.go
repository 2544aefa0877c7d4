package scanner

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// Lessons on the error itself: every failure of a session (any tool, a
// shell command, a file tool, a subagent, an MCP tool) is a candidate for
// a lesson that comes right after the same error, when it comes back. Its
// trigger is the error's stable text (triggers.errors), for the same tool
// and command family; its text is what got past the error in the session:
//   - a retry of the same tool or command family that worked, and what it
//     changed (a command's words, a tool's arguments);
//   - the same call run again after a change of state (a step the error
//     named, a file written), or unchanged (it failed, then worked);
//   - the same command run in another directory;
//   - nothing: no retry of the call worked (the family may have worked
//     doing another thing), and nothing was edited
//     after it; "nothing fixed it in N sessions".
//
// A failure that the task's own edits got past (a lint or test error of
// new code, fixed by editing it) has no lesson here: the edit was the
// task, not a way of calling the tool.
//
// Support: a lesson on the error costs nothing before a call, since it
// comes only after the same error, so a fix that worked (FixConfirmed)
// makes it a lesson from its first session; one whose fix's words are
// of one task (a path, a line, an id, a message: OneOff) says it as that
// task's call, its way to take and not its values, and is never
// proposed; "nothing fixed it" waits for a second session (what it says
// is that the failure comes back).

// KindError is a failure and what got past it, for a lesson on its error.
const KindError = "error"

// Bounds of what a session watches.
const (
	maxWatched    = 64 // failures watched in a session
	watchWindow   = 40 // calls after a failure in which a success settles it
	maxWatchShell = 12 // shell calls remembered per failure, steps or not
	maxWatchStep  = 4  // steps a failure may name among them
	maxNamedStep  = 2  // unnamed steps a lesson may name
)

// errWatch is a failure waiting for a call of its family that works.
type errWatch struct {
	rec   *callRec
	res   *Result
	fam   lessons.Family
	tries int  // failures of the same command family or tool before a fix
	edits bool // a file was edited after it
	// steps are the calls after it that may have changed what it met:
	// shell calls (sorted into steps and looks at the end) and a write of
	// the file a tool did not find.
	steps []*Call
	over  bool // more shell calls than remembered
	// settled: a call of the family worked; fix is it, rerun that it was
	// the same call.
	settled bool
	fix     *Call
	rerun   bool
	// check is the check-mode flag the fix dropped (appliedCheck), and
	// rechecked that the check passed after it with no edit between.
	check     string
	rechecked bool
	// tried are other commands of the family that failed after it (what
	// did not get past it); instead is a call of the same program that
	// worked after it, before any edit: what the agent did instead. Both
	// only speak in a lesson nothing got past.
	tried   []string
	instead *Call
	// read is the agent's reading of it, from its text right after
	// (reading.go).
	read string
	// outside: the fix is a command of its family let out of the
	// sandbox, which ran and failed on its own errors (ranOutside); with
	// a setting of the same command that worked (bySetting,
	// sandboxSetting) it makes the lesson the sandbox's (outOfSandbox).
	outside bool
	// afterOnly: what got past it is one only a lesson after the error
	// may say (errorFix), a reminder never proposed.
	afterOnly bool
	// skipped is the option or variable with which a call of the family
	// went through by switching a check off (checkSkipped): around the
	// failure, not past it.
	skipped string
	// low is errText, once read.
	low string
}

// errText is the head of the watched failure's output (familyHead),
// lower case: where its error names what it is about. Read once: a
// failed tool call's watch asks it of every other tool's call after it
// (toolStep).
func (w *errWatch) errText() string {
	if w.low == "" {
		w.low = strings.ToLower(head(w.res.Output, familyHead))
	}
	return w.low
}

// maxTried caps the commands a lesson nothing got past names as tried.
const maxTried = 2

// watchFailure starts watching a failed call (not a probe): the first
// failure of a command family, or of a tool on a path, until a call of it
// works; the failures of it before then count as tries. A tool that did
// not answer in time (a browser, an MCP server) is watched too: when it
// times out again in a later session, that it did before is worth saying. Its key (family
// and class) is read only at the session's end, for the few failures a
// lesson may be about.
func (a *analyzer) watchFailure(rec *callRec, r *Result) {
	c := rec.call
	var fam lessons.Family
	if c.Tool == "Bash" {
		// the family as the analyzer reads it (failedFamily): LoggedCall's
		// reading trims the output first, which costs more and rarely differs.
		// A look (cat, tail, ls) that fails answers a question, unless it
		// never ended (tail -f, less): the shell tool stopped it
		if fam = failedFamily(c.Command, r); fam.Exe == "" || fam.Probe && !r.Timeout {
			return
		}
	}
	for _, w := range a.watch {
		if w.settled || w.rec.call.Tool != c.Tool || w.fam != fam || w.rec.call.Path != c.Path {
			continue
		}
		if ranOutside(w, c, r) {
			// however late: the sandbox holds for the whole session
			w.settled, w.fix, w.outside = true, c, true
			return
		}
		if rec.seq-w.rec.seq <= watchWindow {
			w.tries++
			if c.Tool == "Bash" && len(w.tried) < maxTried && doing(c.Command) != doing(w.rec.call.Command) &&
				!slices.ContainsFunc(w.tried, func(t string) bool { return doing(t) == doing(c.Command) }) {
				w.tried = append(w.tried, c.Command)
			}
			return
		}
	}
	if len(a.watch) < maxWatched {
		a.watch = append(a.watch, &errWatch{rec: rec, res: r, fam: fam, tries: 1})
	}
}

// key is the watched failure's key, as LoggedCall.Key reads it but for
// the shell family (failedFamily) and for a tool other than the shell,
// keyed by the tool alone (not the file's extension); "" for a failure
// no lesson on its error can be about: the user interrupted it, or it
// printed nothing.
func (w *errWatch) key() string {
	c := w.rec.call
	lc := LoggedCall{Call: *c, Outcome: OutcomeFailed, Error: w.res.Output}
	class := lc.ErrorClass()
	switch {
	case class == "interrupted" || class == lessons.NoOutputClass && !w.outOfSandbox():
		return ""
	case c.Tool == "Bash":
		return "Bash " + w.fam.String() + " | " + class
	}
	// a tool's error is one lesson whatever the file: Read of a .log and
	// of a .md that exceed the same limit teach the same thing
	return c.Tool + " | " + class
}

// skipsOf is the option or variable with which worked, a shell call of
// the failed one's family, switched a check off (checkSkipped), or "".
func skipsOf(failed, worked *Call) string {
	if failed.Tool != "Bash" || worked.Tool != "Bash" {
		return ""
	}
	return checkSkipped(failed.Command, worked.Command)
}

// onlyRetried reports whether every finding about call id is a retry
// fix: no #lesson report and no known failure says it.
func (a *analyzer) onlyRetried(id string) bool {
	for _, f := range a.findings {
		if f.Call == id && f.Kind != KindRetry {
			return false
		}
	}
	return true
}

// anyCommand reports whether a lesson on the watched shell failure's
// error is for any shell command (ClassObject: an error about a named
// program or module, the environment's or the shell's refusal). A retry's
// lesson on the same call speaks only for its own command family, so it
// does not say this one.
func (w *errWatch) anyCommand() bool {
	if w.rec.call.Tool != "Bash" {
		return false
	}
	lc := LoggedCall{Call: *w.rec.call, Outcome: OutcomeFailed, Error: w.res.Output}
	object, _ := lessons.ClassObject(lc.ErrorClass())
	return object != ""
}

// watchSuccess sees a call that worked: it settles the watched failures
// of its tool and family, and is a change every other one remembers.
func (a *analyzer) watchSuccess(rec *callRec) {
	c := rec.call
	edit := c.Path != "" && writing(c.Tool)
	if edit {
		a.noteEdit(c.Path)
	}
	var fams func() []string
	for _, w := range a.watch {
		if w.settled && w.check != "" && !w.rechecked && rec.seq-w.rec.seq <= watchWindow {
			switch {
			case edit:
				w.check = "" // an edit came between: what made the check pass is not known
			case c.Tool == "Bash":
				w.rechecked = checksAgain(c.Command, w.fam.String(), w.check)
			}
		}
		if w.settled || rec.seq-w.rec.seq > watchWindow {
			continue
		}
		if fams == nil {
			fams = families(c.Command)
		}
		if sameUnit(w, c, fams) && (sameCall(w.rec.call, c) || !setupOf(c.Command, w) && !pipedOff(c.Command, w.fam)) {
			if s := skipsOf(w.rec.call, c); s != "" {
				w.skipped = cmp.Or(w.skipped, s)
				continue
			}
			w.settled, w.fix, w.rerun = true, c, sameCall(w.rec.call, c)
			if c.Tool == "Bash" && w.rec.call.Tool == "Bash" && !w.rerun {
				w.check = appliedCheck(w.rec.call.Command, c.Command)
			}
			continue
		}
		if w.instead == nil && !w.edits && !edit && c.Tool == "Bash" && w.rec.call.Tool == "Bash" && sameProgram(w.fam, fams()) &&
			!lessons.CommandFamily(c.Command).Probe && !filtered(c.Command) {
			w.instead = c // the same program, asked another way, worked
		}
		// a setup step of the same family (manage.py migrate after
		// manage.py test failed) is a step before the call, not its fix
		switch {
		case edit && c.Tool == "Write" && w.rec.call.Tool != "Bash" && w.rec.call.Path == c.Path:
			w.steps = append(w.steps, c) // the file the tool did not find, written
		case edit:
			w.edits = true
		case c.Tool != "Bash":
			if len(w.steps) < maxWatchShell && toolStep(w, c) {
				w.steps = append(w.steps, c) // another tool's call, which may have set the state the failed one needed
			}
		case len(w.steps) < maxWatchShell:
			w.steps = append(w.steps, c) // read at the session's end: most watches never need it
		default:
			w.over = true
		}
	}
}

// sameUnit reports whether a call that worked is one of the failed
// call's kind: the same command family, or the same tool.
func sameUnit(w *errWatch, c *Call, fams func() []string) bool {
	f := w.rec.call
	if f.Tool != c.Tool {
		return readFirst(w, c)
	}
	if f.Tool != "Bash" {
		return relatedPath(f.Path, c.Path)
	}
	return slices.Contains(fams(), w.fam.String()) || gotPast(f, c) || inNewEnv(w.fam, c.Command, fams())
}

// inNewEnv reports whether a shell command that worked ran the failed
// call's family in an environment it made or activated first (`python3
// -m venv .venv && source .venv/bin/activate && pip install …` after
// `pip3 install` was refused): the environment is what got past it, and
// its program goes by its name without a version there (pip for pip3,
// python for python3).
func inNewEnv(failed lessons.Family, cmd string, fams []string) bool {
	if !strings.Contains(cmd, "activate") && !strings.Contains(cmd, "venv") || !envStep.MatchString(cmd) {
		return false // most commands that worked: no regex run
	}
	want := envProgram(failed.String())
	return slices.ContainsFunc(fams, func(f string) bool {
		g := envProgram(f)
		return g == want || !strings.Contains(want, " ") && strings.HasPrefix(g, want+" ")
	})
}

// envProgram is a family as an environment runs it: unversioned, and a
// module Python runs as a program by its name (python3 -m pip: pip, which
// a family without a subcommand matches whatever pip was asked to do).
func envProgram(fam string) string {
	f := unversioned(fam)
	if rest, ok := strings.CutPrefix(f, "python -m "); ok {
		return rest
	}
	return f
}

// envStep finds a step that makes or activates an environment for the
// commands after it: a virtualenv's activate script, conda's or pyenv's
// activate, python -m venv, virtualenv, uv venv.
var envStep = regexp.MustCompile(`/bin/activate\b|\b(?:conda|pyenv|mamba|micromamba) activate\b|-m venv\b|\bvirtualenv\s|\buv venv\b`)

// unversioned is a family with the version its program's name ends
// with taken off (pip3 install, python3.12 -m pytest: pip install,
// python -m pytest).
func unversioned(fam string) string {
	exe, rest, _ := strings.Cut(fam, " ")
	exe = strings.TrimRight(exe, "0123456789.")
	if rest == "" {
		return exe
	}
	return exe + " " + rest
}

// families are the command families of a shell command's simple
// commands, once.
func families(cmd string) func() []string {
	var out []string
	read := false
	return func() []string {
		if !read {
			read = true
			for _, seg := range segments(cmd) {
				if f := lessons.CommandFamily(strings.Join(seg, " ")).String(); f != "" && !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
		return out
	}
}

// readFailures takes the agent's text: for a failure whose result came
// since the last call, it may say what the failure is.
func (a *analyzer) readFailures(text string) {
	for _, w := range a.watch {
		if w.read == "" && !w.settled && w.rec.seq == a.seq {
			w.read = reading(text, w.res.Output)
		}
	}
}

// sameProgram reports whether a command's families ask the program of a
// failed family for the same thing another way: another family of the
// program that names what the failed one asked for (its last word, or a
// part of it: bun test after bun run test, not bun run lint after it).
func sameProgram(f lessons.Family, fams []string) bool {
	words := strings.Fields(f.Sub)
	if len(words) == 0 {
		return false // the bare program: nothing it asked for to compare
	}
	want := strings.FieldsFunc(words[len(words)-1], func(r rune) bool { return r == ':' || r == '-' || r == '.' || r == '/' })
	return slices.ContainsFunc(fams, func(g string) bool {
		rest, ok := strings.CutPrefix(g, f.Exe+" ")
		return ok && g != f.String() && slices.ContainsFunc(strings.Fields(rest), func(w string) bool { return slices.Contains(want, w) })
	})
}

// fullPath is the path by which a command that worked runs the program
// a failure's shell did not find (command not found: go, then
// /usr/local/go/bin/go build), or "".
func fullPath(r *Result, cmd string) string {
	exe, ok := strings.CutPrefix(lessons.ErrorClass(r.Output), missingCommand)
	if !ok || exe == "" {
		return ""
	}
	for _, seg := range segments(cmd) {
		for _, w := range seg {
			if strings.Contains(w, "=") && !strings.HasPrefix(w, "/") {
				continue // an assignment before the program
			}
			if strings.HasPrefix(w, "/") && path.Base(w) == exe {
				return w
			}
			break
		}
	}
	return ""
}

// wrapperOf is the command through which a command that worked runs the
// failed command the shell did not find the program of, word for word
// (command not found: vp, then nix develop --command vp --version), or
// "". The failed command must hold more than the program's name: a bare
// name after other words may be what they act on (an install of it).
func wrapperOf(r *Result, failed, worked string) string {
	if !strings.Contains(worked, strings.TrimSpace(failed)) {
		return "" // not the failed command word for word (and no need to read the error)
	}
	exe, ok := strings.CutPrefix(lessons.ErrorClass(r.Output), missingCommand)
	if !ok || exe == "" {
		return ""
	}
	for _, f := range segments(failed) {
		if len(f) < 2 || path.Base(f[0]) != exe {
			continue
		}
		for _, seg := range segments(worked) {
			if n := len(seg) - len(f); n > 0 && slices.Equal(seg[n:], f) {
				return strings.Join(seg[:n], " ")
			}
		}
	}
	return ""
}

// filtered reports whether a command's output is piped into a filter
// (| tail, | grep): its exit status is the filter's, so that it worked
// says nothing of the command before it.
func filtered(cmd string) bool {
	segs := segments(cmd)
	if len(segs) < 2 || !strings.Contains(cmd, "|") {
		return false
	}
	exe, _ := commandHead(segs[len(segs)-1])
	return probes[exe]
}

// pipedOff reports whether a shell command runs fam with its output piped
// into a filter (git stash && bun run test --filter=x | tail -20 && git
// stash pop): the exit status is the filter's, so that the command
// worked says nothing of fam's run in it.
func pipedOff(cmd string, fam lessons.Family) bool {
	if fam.Exe == "" || !strings.Contains(cmd, "|") {
		return false
	}
	var seg []string
	ofFam := false
	for _, w := range append(shellWords(stripHeredocs(cmd)), ";") {
		if !isOperator(w) {
			seg = append(seg, w)
			continue
		}
		if len(seg) > 0 {
			if ofFam {
				exe, _ := commandHead(seg)
				if probes[exe] {
					return true
				}
			}
			ofFam = w == "|" && lessons.CommandFamily(strings.Join(seg, " ")) == fam
		}
		seg = nil
	}
	return false
}

// relatedPath reports whether a file tool's call on worked is a retry of
// one on failed: the same file, the same name elsewhere, or a file inside
// the failed path (a directory, then a file in it). Another file, or the
// folder around a missing one, is the agent moving on or looking around.
func relatedPath(failed, worked string) bool {
	if failed == "" || worked == "" || failed == worked {
		return true
	}
	f, w := strings.TrimSuffix(failed, "/"), strings.TrimSuffix(worked, "/")
	return path.Base(f) == path.Base(w) || strings.HasPrefix(w, f+"/")
}

// setupOf reports whether a command that worked runs, in the failed
// call's family, only a setup step the failed call did not run
// (manage.py migrate after manage.py test failed).
func setupOf(cmd string, w *errWatch) bool {
	if w.rec.call.Tool != "Bash" {
		return false
	}
	if w.startedInBackground(cmd) {
		return false // its fix (lesson), not a step before it
	}
	failed, setup := w.rec.call.Command, false
	for _, seg := range segments(failed) {
		if one := strings.Join(seg, " "); lessons.CommandFamily(one).String() == w.fam.String() && settingUp(one) {
			return false // the failed call was the set-up step itself (go build): the same step working is its fix
		}
	}
	for _, seg := range segments(cmd) {
		one := strings.Join(seg, " ")
		if lessons.CommandFamily(one).String() != w.fam.String() {
			continue
		}
		if !settingUp(one) || strings.Contains(failed, one) {
			return false // the failed command itself, again
		}
		setup = true
	}
	return setup
}

// inBackground reports whether a shell command starts something in the
// background: a & ends one of its commands (nohup alone keeps it in the
// foreground; 2>&1 is a redirection).
func inBackground(cmd string) bool {
	return strings.Contains(cmd, "&") && slices.Contains(shellWords(stripHeredocs(cmd)), "&")
}

// ranElsewhere reports whether fixed is failed run in another directory:
// a cd in front of one of them, or another cd, and the rest the same but
// for output shaping (2>&1, | head). The shell keeps its directory from
// one call to the next, so a cd that worked once fails when repeated.
func ranElsewhere(failed, fixed string) bool {
	fcd, frest := cutCd(failed)
	gcd, grest := cutCd(fixed)
	return fcd != gcd && frest != "" && (frest == grest || fcd == "" && (movedInto(frest, grest, gcd) || droppedInto(frest, grest, gcd)))
}

// droppedInto reports whether fixed is failed run from inside dir with
// dir, its operand, dropped: `gdrive-sync pull "C:/work/site"` as `cd
// "C:/work/site" && gdrive-sync pull`, a program that works on the
// folder it runs in and took the path for something else.
func droppedInto(failed, fixed, dir string) bool {
	f, g := strings.Fields(failed), strings.Fields(fixed)
	dir = strings.TrimSuffix(strings.Trim(dir, `"'`), "/")
	if len(f) != len(g)+1 || len(g) < 1 || dir == "" || dir == "." || dir == ".." {
		return false
	}
	for i, w := range f {
		if i > 0 && strings.TrimSuffix(strings.Trim(w, `"'`), "/") == dir && slices.Equal(slices.Concat(f[:i], f[i+1:]), g) {
			return true
		}
	}
	return false
}

// movedInto reports whether fixed is failed run from inside dir, its
// paths made relative to it: `go build ./e2e/...` as `cd e2e && go build
// ./...` (a folder that is a module, a package or a workspace of its
// own). dir may be the folder's full path: its last part is enough.
func movedInto(failed, fixed, dir string) bool {
	f, g := strings.Fields(failed), strings.Fields(fixed)
	dir = strings.TrimSuffix(dir, "/")
	if len(f) != len(g) || dir == "" || dir == "." || dir == ".." {
		return false
	}
	names := []string{strings.TrimPrefix(dir, "./"), path.Base(dir)}
	moved := false
	for i := range f {
		if f[i] == g[i] {
			continue
		}
		fw, gw := strings.TrimPrefix(f[i], "./"), strings.TrimPrefix(g[i], "./")
		ok := false
		for _, d := range names {
			ok = ok || fw == d && (gw == "." || gw == "") || fw == d+"/"+gw
		}
		if !ok {
			return false
		}
		moved = true
	}
	return moved
}

// cutCd splits a command into the directory its leading cd goes to ("" for
// none) and what the rest does (doing).
func cutCd(cmd string) (dir, rest string) {
	segs := shellStages(stripHeredocs(cmd))
	if len(segs) < 2 || len(segs[0].words) != 2 || segs[0].words[0] != "cd" {
		return "", doing(cmd)
	}
	segs[1].op = ""
	return segs[0].words[1], stagesText(shownStages(segs[1:]))
}

// settleErrors turns the session's watched failures into findings, once
// per key: each unless the task's own edits got past it, or another
// finding of the session is about the same call (a known failure, a
// retry or precondition fix, the agent's #lesson report). A retry's call
// whose error is for any shell command (anyCommand) still gets one, as a
// reminder only (Signals.Reminds).
func (a *analyzer) settleErrors() {
	var keys []string
	for _, w := range a.watch {
		reminds := a.explained(w.rec.id)
		if reminds && !(a.onlyRetried(w.rec.id) && (w.anyCommand() || w.namesOwnFlag())) || w.taskEdits(a.edited) {
			continue // a retry, a tag already says it (with a trigger before the call or the agent's words), or the task's edits got past it
		}
		key := w.key()
		if key == "" || slices.Contains(keys, key) || a.knownKey(key) {
			continue // once per key: the first lesson found; a known failure says the rest
		}
		fix, fixed, confirmed, ok := w.lesson()
		if !ok {
			continue
		}
		problem := w.res.errorText()
		c := w.rec.call
		lc := LoggedCall{Error: w.res.Output}
		line, wrapper := lessons.ErrorLine(lc.ErrorText())
		switch {
		case strings.HasSuffix(key, " | no output"):
			// got past out of the sandbox (key), with no words of its
			// own: the lesson is the setting, before the command
			// (silentSandbox)
			problem, line = "`"+commandGist(c.Command)+"` "+failedSilently, ""
		case problem == "" || wrapper || subjectPattern(lessons.FirstSentence(line)) == "" || c.Tool == "Bash" && !keysError(w.fam, w.res.Output, line):
			continue // a runner's status line, too little stable text for a trigger, or a line of the command's output that says nothing went wrong
		}
		keys = append(keys, key) // a later failure of the key that gave none may give one
		retries := w.tries - 1
		if w.outside {
			retries = 0 // the tries failed the same way in the sandbox: what got past them is plain
		}
		f := finding{
			Kind: KindError, Line: w.rec.line, UID: w.rec.uid, Tool: c.Tool, Trigger: callTrigger(c), Fixed: fixed,
			Call: w.rec.id, Change: key, Problem: problem, Solution: fix, ErrLine: line, Passed: c.Passed,
			Signals: Signals{FixConfirmed: confirmed, Retries: retries, Reminds: reminds || w.afterOnly || echoes(w.res.Output, callText(c), backticked(fix))}, Sandboxed: w.outOfSandbox(),
			Setting: w.bySetting() || w.outside,
		}
		if !w.settled {
			f.Tried, f.Reading, f.Skipped = w.tried, w.read, w.skipped
			if w.instead != nil {
				f.Instead = w.instead.Command
			}
		}
		a.findings = append(a.findings, f)
	}
	a.watch = nil
}

// knownKey reports whether a known failure of the session has this key.
func (a *analyzer) knownKey(key string) bool {
	for _, f := range a.findings {
		if f.Kind == KindKnown && "Bash "+f.Change == key {
			return true
		}
	}
	return false
}

// taskEdits reports whether the task's own edits came after a watched
// failure: then the agent went on editing, and whether that fixed it is
// not known, or an edit and the same kind of call again got past it, and
// the edit was the fix. A shell failure nothing got past is the task's
// only when its output names a file the session edited (a lint or type
// error in the code at hand): one that names none (a tool refusing how
// it was called, a check of what the task did not touch) is not one
// editing files can have got past, and neither is an error about the
// command itself (the program is not there, or does not take an option:
// refusesTheCall); the edits were the task going on without it. A
// tool's failure nothing got past is the task's, unless its error names
// what the call did not (the tool's own program, gone: aboutTheCall); a
// look at a file (Read, Glob) is got past by an edit of that file alone:
// editing others (a Read of a folder refused, then the work went on)
// went on without it.
func (w *errWatch) taskEdits(edited []string) bool {
	if !w.edits {
		return false
	}
	if !w.settled {
		f := w.rec.call
		switch {
		case f.Tool != "Bash" && f.Path != "" && !writing(f.Tool):
			return slices.ContainsFunc(edited, func(p string) bool { return p == f.Path || strings.HasPrefix(p, f.Path+"/") })
		case f.Tool != "Bash":
			return !serviceTool(f.Tool) && aboutTheCall(w.res.Output, f)
		}
		return !refusesTheCall(w.res.Output) && namesEdited(w.res.Output, edited)
	}
	if w.backgrounded() || w.outside || w.bySetting() && (w.res.Timeout || sandboxSetting(w.rec.call.Args, w.fix.Args)) {
		// what got past it was starting it in the background, or a
		// setting for a call that timed out or that the sandbox
		// refused, not the edits
		return false
	}
	return w.rec.call.Tool == "Bash" || w.rerun
}

// startedInBackground reports whether cmd starts in the background what
// the watched shell call ran in the foreground until the shell tool
// stopped it at its time limit (a server, a watcher).
func (w *errWatch) startedInBackground(cmd string) bool {
	f := w.rec.call
	return f.Tool == "Bash" && w.res.Timeout && inBackground(cmd) && !inBackground(f.Command)
}

// bySetting reports whether the watched shell failure was got past by
// the same command with a setting of the shell tool switched (Call.Args:
// out of the sandbox, into the background). A leading cd to a folder is
// left out of both: the shell keeps the folder of an earlier cd, so
// `cd api && npm run dev`, then `npm run dev` is the same command.
func (w *errWatch) bySetting() bool {
	f := w.rec.call
	if !w.settled || f.Tool != "Bash" || w.fix.Tool != "Bash" || f.Args == w.fix.Args {
		return false
	}
	return doing(withoutCd(f.Command)) == doing(withoutCd(w.fix.Command))
}

// withoutCd is cmd without a leading cd to a folder (cutCd).
func withoutCd(cmd string) string {
	if dir, rest := cutCd(cmd); dir != "" {
		return rest
	}
	return cmd
}

// backgrounded reports whether the watched call was got past by the same
// family started in the background (startedInBackground).
func (w *errWatch) backgrounded() bool {
	return w.settled && w.startedInBackground(w.fix.Command)
}

// maxEdited caps the files a session remembers editing.
const maxEdited = 64

// noteEdit remembers a file the session edited, once.
func (a *analyzer) noteEdit(p string) {
	if len(a.edited) < maxEdited && !slices.Contains(a.edited, p) {
		a.edited = append(a.edited, p)
	}
}

// namesEdited reports whether a failure's output names one of the
// files edited, by its name.
func namesEdited(out string, edited []string) bool {
	return slices.ContainsFunc(edited, func(p string) bool {
		base := path.Base(strings.ReplaceAll(p, "\\", "/"))
		return len(base) >= 3 && strings.Contains(out, base)
	})
}

// lesson is what got past a watched failure, in words, and the call
// that worked ("" when nothing did); confirmed when the change that got
// past it is one a lesson can teach (a retry worth a lesson, a tool's
// argument, a step before the same call); ok is false when there is no
// lesson on its error to write: the task's edits got past it, or came
// after it with nothing that worked.
func (w *errWatch) lesson() (fix, fixed string, confirmed, ok bool) {
	f := w.rec.call
	switch {
	case !w.settled && f.Tool != "Bash" && !serviceTool(f.Tool) && aboutTheCall(w.res.Output, f) && lessons.ErrorClass(w.res.Output) == missingPath:
		// a path of the call that was not there, nothing got past: the
		// agent moved on (a wrong path's lesson says where it was); any
		// other error of a tool (a size limit, a refusal) comes back
		// with the next such call, and is said as one nothing got past
		return "", "", false, false
	case !w.settled && f.Tool != "Bash":
		// an error that names what the call did not (the tool's own
		// program missing): the environment's, and it comes back
		return "", "", false, true
	case !w.settled:
		return "", "", false, true // nothing got past it: the text says so at build, with its sessions
	}
	did := ""
	var toolSteps []*Call
	if f.Tool != "Bash" {
		toolSteps = toolStepsOf(w, w.stepsTaken())
	}
	switch {
	case len(toolSteps) > 0:
		var said []string
		for _, s := range toolSteps {
			said = append(said, describeChange(s))
		}
		did = "the next " + w.fix.Tool + " call worked after you " + strings.Join(said, ", then ") + ": do that first"
		if w.rerun {
			did = "it worked when run again after you " + strings.Join(said, ", then ") + ": do that first"
		}
		// a reminder only: no team saw a tool's step as a candidate
		confirmed, w.afterOnly = true, true
	case w.rerun && len(w.stepsTaken()) > 0:
		steps := w.namedSteps()
		if len(steps) == 0 {
			return "", "", false, false // too many steps between to say which, or none the error is about
		}
		var said []string
		for _, s := range steps {
			said = append(said, describeChange(s))
		}
		did = "it worked when run again after you " + strings.Join(said, ", then ") + ": do that first"
		confirmed = true
	case w.outside:
		// out of the sandbox, the family ran and failed on its own errors
		ran := "the same command"
		if !w.bySetting() {
			ran = "`" + shownCommand(w.fix.Command, 300) + "`"
		}
		did = ran + " ran with " + argsChange(f, w.fix, "").change + " (and failed on errors of its own)"
		confirmed = true
	case w.bySetting():
		// the same command with a setting of the shell tool switched
		// (out of the sandbox, in the background): the setting is the fix
		did = "the same command worked with " + argsChange(f, w.fix, "").change
		confirmed = true
	case w.rerun && lessons.TallyLine(lessons.ErrorClass(w.res.Output)):
		// a count names nothing: that the rerun passed says the count
		// changed, not that the same failure comes and goes
		return "", "", false, false
	case w.rerun && harnessRefusal.MatchString(w.res.Output):
		// the agent's set-up stopped the call once (a hook that warns on
		// the first edit of a kind of file, a permission rule since
		// changed) and let the same call through: no mistake of the call
		return "", "", false, false
	case w.rerun:
		did = "the same call worked when run again unchanged: it fails now and then, so run it again before changing anything"
	case f.Tool == "Bash" && ranElsewhere(f.Command, w.fix.Command):
		did = "the same command worked in another directory: `" + shownCommand(w.fix.Command, 300) + "` (the shell keeps the directory of an earlier cd)"
		dir, rest := cutCd(w.fix.Command)
		switch {
		case movedInto(doing(f.Command), rest, dir):
			did = "the same command worked run from inside the folder its paths named, `" + clip(dir, 200) + "`: `" +
				shownCommand(w.fix.Command, 300) + "`. A folder such as this one is a project of its own: run the command from inside the folder the error names"
		case droppedInto(doing(f.Command), rest, dir):
			did = "the same command worked run from inside the folder it was given, without it: `" + shownCommand(w.fix.Command, 300) +
				"`. It works on the folder it runs in: cd into the folder, and do not pass it"
		}
		confirmed = true
	case w.backgrounded():
		// a server or a watcher run in the foreground never ends: the
		// shell tool stopped it at its time limit
		did = "it ran until the shell tool stopped it at its time limit; started in the background it worked: `" + shownCommand(w.fix.Command, 300) + "`"
		confirmed = true
	case f.Tool == "Bash" && fullPath(w.res, w.fix.Command) != "":
		// the program the shell did not find, run by its full path: the
		// path is the lesson, whatever else the call changed
		at := fullPath(w.res, w.fix.Command)
		did = "`" + path.Base(at) + "` is not on the PATH of this shell; it worked run by its full path, `" + at + "`"
		confirmed = true
	case f.Tool == "Bash" && !fixWorthy(f.Command, w.fix.Command, w.res):
		// another command of the family that aims elsewhere or does
		// something else (git rebase --abort, another gh api path): it got
		// past the failure without saying how to avoid it, unless it is
		// plainly the way past the error (errorFix); one that did
		// another thing (another subcommand, the program by another
		// path) got around it, and nothing got past it
		if did, ok = w.errorFix(); !ok {
			if fams := families(w.fix.Command); !slices.Contains(fams(), w.fam.String()) && inNewEnv(w.fam, w.fix.Command, fams()) {
				// its words changed with the environment (python3 -m pip
				// install --user, then pip install in a new virtualenv)
				did, confirmed = "`"+shownCommand(w.fix.Command, 300)+"` worked, in an environment it made or activated first", true
				break
			}
			if !didOtherwise(f.Command, w.fix.Command) {
				return "", "", false, false
			}
			w.settled, w.fix = false, nil
			return "", "", false, true
		}
		confirmed, w.afterOnly = true, true
	case f.Tool == "Bash":
		did = "`" + shownCommand(w.fix.Command, 300) + "` worked"
		if _, _, ch, ok := fixPatterns(f.Command, w.fix.Command, w.res.Output); ok && ch != "" {
			did += " (" + ch + ")"
		}
		confirmed = true
	case !aboutTheCall(w.res.Output, f):
		// the error names something the call did not (posix_spawn
		// '/opt/…/rg'): what its retry changed is not what fixed it, and
		// the error is the environment's, as when nothing got past it
		w.settled, w.fix = false, nil
		return "", "", false, true
	default:
		d := argsChange(f, w.fix, w.errText())
		switch {
		case d.unsure:
			// it asked for another thing, and changed a setting the error
			// does not name: what got past it is unknown, and the error
			// comes back as one nothing got past
			w.settled, w.fix = false, nil
			return "", "", false, true
		case d.change == "" && f.Sum != w.fix.Sum:
			// it changed what its arguments do not show (a nested
			// object, its text, its command): no change to name
			return "", "", false, false
		case d.change == "":
			did = "the next " + f.Tool + " call worked, with the same arguments"
		case !d.settings:
			// only another text or value (a session id, a count): no
			// way of calling the tool a future agent can take up
			return "", "", false, false
		default:
			did = "the next " + f.Tool + " call worked with " + d.change
			confirmed = true
			// the type it passed is the one the error asked for ("must be
			// array"): said after the error only
			w.afterOnly = w.afterOnly || d.told
		}
	}
	return did, cmp.Or(w.fix.Command, w.fix.Path, w.fix.Tool), confirmed, true
}

// didOtherwise reports whether a command of the failed family that
// worked did another thing than the failed one: another program or
// subcommand, the program by another path, or another inline command
// (an argument of several words: a query, a remote command), and not a
// look at its help. One that only aimed the same thing elsewhere
// (another file, test or id) was correcting a value of one task.
func didOtherwise(failed, worked string) bool {
	d, ok := diffCommands(failed, worked)
	if !ok {
		return otherText(failed, worked) || unlike(failed, worked)
	}
	if slices.ContainsFunc(d.added, func(w string) bool { return exploring[w] }) {
		return false
	}
	// a subcommand for another, not a flag's value read as one (-S warning)
	otherSub := d.sub != "" && d.gsub != "" && d.sub != d.gsub
	return d.exe != d.gexe || otherSub || programWord(d.f) != programWord(d.g) ||
		slices.ContainsFunc(d.added, func(w string) bool { return len(strings.Fields(w)) >= 2 })
}

// otherText reports whether a simple command of failed and the one of
// worked closest to it differ in an argument of several words on both
// sides (a query, a remote command), which diffCommands leaves out when
// it is long: the call that worked asked another thing.
func otherText(failed, worked string) bool {
	gs := segments(worked)
	for _, f := range segments(failed) {
		g := closest(f, gs)
		if len(g) != len(f) {
			continue
		}
		for i := range f {
			if f[i] != g[i] && strings.ContainsAny(f[i], " \t\n") && strings.ContainsAny(g[i], " \t\n") {
				return true
			}
		}
	}
	return false
}

// unlike reports whether a simple command of failed has a program that
// a simple command of worked runs too, and shares too few words with any
// of them to be told apart from it (gh pr merge 234 --auto, then gh pr
// close 222 --comment "…"): the call that worked asked another thing.
func unlike(failed, worked string) bool {
	gs := segments(worked)
	for _, f := range segments(failed) {
		exe, _ := commandHead(f)
		if exe == "" || exe == "cd" || closest(f, gs) != nil {
			continue
		}
		if slices.ContainsFunc(gs, func(g []string) bool { e, _ := commandHead(g); return e == exe }) {
			return true
		}
	}
	return false
}

// programWord is the word that names a simple command's program, as
// written (a path or a name), after any assignments.
func programWord(words []string) string {
	if i := programAt(words); i < len(words) {
		return words[i]
	}
	return ""
}

// programAt is the index of a simple command's program word, past any
// assignments; len(words) when there is none.
func programAt(words []string) int {
	for i, w := range words {
		if !strings.Contains(w, "=") || strings.HasPrefix(w, "-") {
			return i
		}
	}
	return len(words)
}

// stepsTaken are the calls after the failure that may have changed what
// it met: a file the tool did not find, written, and shell commands but
// those that only look around.
func (w *errWatch) stepsTaken() []*Call {
	var out []*Call
	for _, c := range w.steps {
		if c.Tool != "Bash" || settingUp(c.Command) || !lessons.CommandFamily(c.Command).Probe && !probes[headWords(c.Command)] {
			out = append(out, c)
		}
	}
	return out
}

// namedSteps are the steps between a failure and the same call working
// that the lesson names: those the error named (the missing module, file
// or variable), else all of them when they are few; none when there were
// more than remembered.
func (w *errWatch) namedSteps() []*Call {
	if w.over {
		return nil
	}
	steps := w.stepsTaken()
	if len(steps) > maxWatchStep {
		return nil
	}
	errText := w.errText() // a hint may follow the error lines
	line, _ := lessons.ErrorLine(w.res.Output)
	line = strings.ToLower(line)
	var named []*Call
	for _, s := range steps {
		// the error names what the step made, or the step's command
		// itself (a hint: "use git pull before pushing again"); the
		// other lines of the output (matches, passing checks, a log)
		// name much that has nothing to do with what failed
		if h := headWords(s.Command); namedBy(line, s) || strings.Contains(h, " ") && strings.Contains(errText, strings.ToLower(h)) {
			named = append(named, s)
		}
	}
	switch {
	case len(named) > 0:
		return named
	case len(steps) <= maxNamedStep && environmental.MatchString(errText) &&
		!slices.ContainsFunc(steps, func(c *Call) bool { return taskStep(c, w.rec.call) }):
		return steps // a few setup steps, and an error about the world the call ran in
	}
	return nil
}

// aboutTheCall reports whether a tool's error is about the call's own
// input: it quotes nothing, or something the call's path or arguments
// hold.
func aboutTheCall(out string, c *Call) bool {
	line, _ := lessons.ErrorLine(out)
	quoted := quotedValue.FindAllStringSubmatch(line, 4)
	if len(quoted) == 0 {
		return true
	}
	for _, q := range quoted {
		v := q[1] + q[2]
		if v != "" && (strings.Contains(c.Path, v) || strings.Contains(c.Args, v) || strings.Contains(v, c.Path) && c.Path != "") {
			return true
		}
	}
	return false
}

// quotedValue is a value an error line quotes.
var quotedValue = regexp.MustCompile(`'([^'\n]{1,200})'|"([^"\n]{1,200})"`)
