package scanner

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// Known failures: the same error (command family and error class)
// failing before the agent changed anything, in two or more sessions of a
// project, is a failure that comes with the checkout or the environment
// (a test that fails on a clean tree, a tool that is not installed, a
// hook that refuses a folder, a file the checkout does not have), not
// one the agent caused. A file tool refused a path (a hook, a permission)
// is keyed by the path's folder too: the same refusal of a folder comes
// back under new file names; one whose error is about the file itself (it
// does not exist) by the file: two guesses of missing files are not one
// failure. A lesson at the failure says so, so that the next agent does
// not spend the session "fixing" it, or revert its own correct work to
// make it pass.

// KindKnown is a failure seen before any change in several sessions.
const KindKnown = "known"

// maxKnown caps the failures one session remembers before any change,
// and again after.
const maxKnown = 3

// knownFailure is a failure waiting for the session's end: made before
// any change and if nothing in the session explains it, it is a finding;
// made after (after), it only supports a known failure found before.
type knownFailure struct {
	rec   *callRec
	res   *Result
	after bool
	// family is a shell failure's command family; worked is set once a
	// later call of it worked.
	family string
	worked bool
	// refused: the call was refused rather than run and failed, by the
	// environment, the shell or the agent's permission settings
	// (lessons.IsRefusal) or, hook, by a hook of the agent's own set-up
	// (hookMessage). A refusal does not come from the session's work: a
	// change before it caused nothing, and another call of its family
	// that worked later did not get past it (it did not meet it).
	// passed is set once the same call went through right after it, or
	// out of the sandbox (knownSaw).
	refused, hook, passed bool
}

// A failure after the session changed things may be the checkout's all
// the same: agents check by putting their changes aside and running the
// command again (`git stash && npm run lint; git stash pop`). When that
// run prints the failure's error line, it fails on the clean checkout,
// and counts as a failure before any change.
var (
	stashAside = regexp.MustCompile(`\bgit\s+stash(?:\s+(?:push|save))?(?:\s+(?:-m\s+(?:"[^"]*"|'[^']*'|\S+)|-[\w-]+))*\s*(?:&&|;|\n)`)
	stashBack  = regexp.MustCompile(`\bgit\s+stash\s+(?:pop|apply)\b`)
)

// asideRun reports whether a shell command runs something between
// putting the session's changes aside and taking them back.
func asideRun(c *Call) bool {
	return c.Tool == "Bash" && strings.Contains(c.Command, "stash") && stashAside.MatchString(c.Command) && stashBack.MatchString(c.Command)
}

// minAsideLine is the shortest error line a run with the changes put
// aside must print again to reproduce a failure.
const minAsideLine = 12

// asideSaw sees a run with the session's changes put aside: the shell
// failures after a change whose error line it prints again fail on the
// clean checkout, as if before any change.
func (a *analyzer) asideSaw(rec *callRec, r *Result) {
	for i := range a.known {
		k := &a.known[i]
		if !k.after || k.family == "" || k.rec == rec {
			continue
		}
		line, _ := lessons.ErrorLine(k.res.Output)
		line = normalizeSpace(lessons.FirstSentence(lessons.StripANSI(line)))
		if len(line) >= minAsideLine && strings.Contains(normalizeSpace(lessons.StripANSI(r.Output)), line) {
			k.after = false
		}
	}
}

// beforeChange remembers a failed call (not a probe) made before the
// session changed anything, a few made after, as support only, and a
// few refusals made after. Its family and class are read at the
// session's end, and only if nothing explained it.
func (a *analyzer) beforeChange(rec *callRec, r *Result) {
	if r.Timeout || strings.TrimSpace(r.Output) == "" {
		return
	}
	hook := hookMessage(r.Output) != ""
	class := lessons.ErrorClass(r.Output)
	// a kill that ended its own shell does so whatever the session did
	refused := hook || lessons.IsRefusal(class) || selfKill(rec.call, r)
	if class == missingPath && rec.shellAway && rec.call.Tool == "Bash" && !cdsHome(rec.call.Command) {
		return // the shell stands where an earlier cd left it: a path missing from there is the session's, not the checkout's
	}
	n := 0
	for _, k := range a.known {
		if k.after == a.changed && (!a.changed || k.refused == refused) {
			n++
		}
	}
	if n < maxKnown {
		k := knownFailure{rec: rec, res: r, after: a.changed && !asideRun(rec.call), refused: refused, hook: hook}
		if rec.call.Tool == "Bash" {
			k.family = failedFamily(rec.call.Command, r).String()
		}
		a.known = append(a.known, k)
	}
}

// cdsHome reports whether a command line starts by changing to a folder
// named from the root or the home folder: it does not run where an
// earlier cd left the shell.
func cdsHome(cmd string) bool {
	ss := segments(cmd)
	return len(ss) > 0 && len(ss[0]) > 1 && ss[0][0] == "cd" && (strings.HasPrefix(ss[0][1], "/") || strings.HasPrefix(ss[0][1], "~"))
}

// settleKnown turns the session's failures before any change into
// findings, once per family and class, unless a later call of the session
// got past them (a retry or a rerun worked) or a finding explained them:
// then the agent's call was the mistake, or the failure was fixed.
func (a *analyzer) settleKnown() {
	seen := map[string]bool{}
	for _, k := range a.known {
		// A shell command's refusal, or a hook's, before a change or
		// after, is one too unless the same call went through later
		// (passed): another call of its family that worked did not
		// meet it. (A file tool's refusal is got past by the same tool
		// on a path of its folder, knownSaw.)
		standing := k.refused && (k.rec.call.Tool == "Bash" || k.hook)
		if !standing && (k.after || k.rec.fixed) || k.passed || a.explained(k.rec.id) {
			continue // the session got past it: the agent's mistake, or fixed
		}
		c := k.rec.call
		key, trigger, named := knownOf(c, k.res)
		problem := knownProblem(k.res, named)
		if key == "" || problem == "" || seen[key] {
			continue
		}
		seen[key] = true
		a.findings = append(a.findings, finding{
			Kind: KindKnown, Line: k.rec.line, UID: k.rec.uid, Tool: c.Tool, Trigger: trigger,
			Call: k.rec.id, Change: key, Problem: problem,
			// found after a change, or got past by another call of its
			// family, it is said after the refusal and not proposed until
			// a session meets it before any change with nothing getting
			// past it (Reminds is AND-merged); a hook's refusal never is:
			// its own message says what it checks, and whether it only
			// warns once the log does not tell
			Signals: Signals{Reminds: k.after || k.rec.fixed || k.hook},
		})
	}
}

// supportKnown turns the session's failures after a change that nothing
// got past into support for the known failure of the same key, and, when
// no later call of its family or tool worked either, for the lesson on
// its error, as it does a known failure the session found: the session
// counts for a candidate found in an earlier
// session (the failure came back), but alone it is none, since the
// session's own changes may have caused it. It runs after the other
// findings are settled, so that it holds none of them back; a retry, a
// precondition fix or a #lesson about the call explains it.
func (a *analyzer) supportKnown() {
	has := func(kind, key string) bool {
		return slices.ContainsFunc(a.findings, func(f finding) bool { return f.Kind == kind && f.Change == key })
	}
	for _, k := range a.known {
		about := func(f finding) bool { return f.Call == k.rec.id && f.Kind != KindError }
		if !k.after {
			// a known failure found here supports the lesson on its
			// error too: one failure, seen by two routes
			if k.rec.fixed || !slices.ContainsFunc(a.findings, func(f finding) bool { return about(f) && f.Kind == KindKnown }) {
				continue
			}
		} else if k.rec.fixed || slices.ContainsFunc(a.findings, about) {
			continue
		}
		c := k.rec.call
		at := finding{Line: k.rec.line, UID: k.rec.uid, Tool: c.Tool, Call: k.rec.id, Support: true}
		if k.after {
			if key, trigger, named := knownOf(c, k.res); key != "" && !has(KindKnown, key) {
				f := at
				// the problem makes the error trigger, and so the id
				f.Kind, f.Trigger, f.Change, f.Problem = KindKnown, trigger, key, knownProblem(k.res, named)
				a.findings = append(a.findings, f)
			}
		}
		if k.worked {
			continue
		}
		w := errWatch{rec: k.rec, res: k.res}
		if c.Tool == "Bash" {
			w.fam = failedFamily(c.Command, k.res)
		}
		if key := w.key(); key != "" && !has(KindError, key) && (c.Tool != "Bash" || w.fam.Exe != "") {
			f := at
			f.Kind, f.Change, f.Signals.OneOff = KindError, key, true // OneOff: merged, it clears no one-off mark
			a.findings = append(a.findings, f)
		}
	}
	a.known = nil
}

// knownOf is what a known failure repeats, and the trigger of its
// lesson: for a shell command its family and class ("pytest |
// KeyError") and the command, or, when the program itself was not found,
// the program and the class ("go | command not found: go": go doc and go
// build fail alike) and the program; for another tool whose error quotes
// the call's path and does not say it is missing (a refusal, a
// permission), the class and the folder, whatever the file tool ("files
// | Access denied | plans/*.md": a hook that refuses writes there refuses
// reads too), and a glob of the folder's files of that extension; for one whose error is about the
// file otherwise (it does not exist, an offset past its end), the same
// with the file itself, or, for what a file of a generated name holds (a
// hash or an id: a task's output, over Read's size), with its folder's
// glob, as the next such file has another name; for one whose error names something
// the call did not (the tool's own binary missing), or that a directory
// was given where a file was meant (any directory meets it), the tool and the
// class, and no trigger but the tool and the error; "" for a probe or a
// shell command of no family. A shell command's class that is a count
// ("Found N errors.") is read again from the line that names what failed
// (lessons.NamedErrorLine), returned as named: two sessions that print
// the same count may fail for two reasons; with no such line, "": no
// known failure.
func knownOf(c *Call, r *Result) (key, trigger, named string) {
	if c.Tool == "Bash" {
		fam := failedFamily(c.Command, r)
		if fam.Exe == "" || fam.Probe {
			return "", "", ""
		}
		class := lessons.ErrorClass(r.Output)
		if class == lessons.KilledClass && selfKill(c, r) {
			return fam.String() + " | " + class, c.Command, "" // it ended its own shell, whatever it was given
		}
		if exe, ok := strings.CutPrefix(class, missingCommand); ok && exe != "" && !strings.ContainsAny(exe, "/\\") {
			return exe + " | " + class, exe, "" // the program is missing: whatever it was asked to do
		}
		if class == lessons.NoOutputClass {
			if lessons.SilentInterpreter(fam.Exe) && r.ExitCode > 0 && !lessons.SignalExit(r.ExitCode) {
				return fam.Exe + " | " + class, fam.Exe, "" // it did not run: whatever it was given
			}
			return "", "", "" // nothing said: nothing to know it by
		}
		line, _ := lessons.ErrorLine(r.Output)
		// a refusal is known by its class, which names what it refused
		// ("zsh:1: no matches found: *.go" is no match of a search)
		refused := lessons.IsRefusal(class)
		if !refused && !keysError(fam, r.Output, line) {
			return "", "", "" // no line of the output says what went wrong: nothing to know it by
		}
		if !refused && namesCallValue(lessons.StripANSI(line), c.Command) {
			return "", "", "" // the error names what the call was given: the call's mistake
		}
		if notDoneYet(line) {
			return "", "", "" // a run not done yet: nothing about the checkout (a lesson on the error may say the wait)
		}
		if lessons.TallyLine(class) {
			// a count names nothing: two sessions' "Found 4 errors." may
			// be two failures; the line that names what failed says
			if named = lessons.NamedErrorLine(r.Output); named == "" {
				return "", "", ""
			}
			class = lessons.ErrorClass(named)
		}
		return fam.String() + " | " + class, c.Command, named
	}
	lc := LoggedCall{Call: *c, Outcome: OutcomeFailed, Error: r.Output}
	class := lc.ErrorClass()
	if c.Path == "" || !aboutTheCall(r.Output, c) || directoryKind.MatchString(class) {
		// no path, an error about something else than the call's path, or
		// a directory where a file was meant: any directory, not this one
		return c.Tool + " | " + class, "", ""
	}
	if line, _ := lessons.ErrorLine(r.Output); class == missingPath || missingFile.MatchString(line) || !namesPath(line, c.Path) {
		if missing := class == missingPath || missingFile.MatchString(line); !missing && opaque(fileStem(c.Path)) {
			// what a generated file holds (a hash or an id for a name: a
			// task's output): the next one has another name in the same
			// folder
			glob := folderGlob(c.Path)
			return "files | " + class + " | " + glob, glob, ""
		}
		return lc.Family() + " | " + class + " | " + c.Path, c.Path, "" // about this file: missing, or what it holds
	}
	glob := folderGlob(c.Path)
	return "files | " + class + " | " + glob, glob, "" // refused for reading as for writing
}

// knownProblem is what a known failure's lesson quotes of a failed
// call's output: its error lines, led by named, the line that names what
// failed when the error line is a count (knownOf), since that line is
// what the failure is known by, and what its headline and its error
// trigger are read from.
func knownProblem(r *Result, named string) string {
	p := r.errorText()
	if p == "" {
		if class := lessons.ErrorClass(r.Output); class == lessons.KilledClass || class == lessons.NoOutputClass {
			return strings.TrimSpace(clip(r.Output, 200)) // its status line is all it said
		}
	}
	if named == "" {
		return p
	}
	lines := slices.DeleteFunc(strings.Split(p, "\n"), func(l string) bool { return strings.TrimSpace(lessons.StripANSI(l)) == named })
	return clip(strings.Join(append([]string{named}, lines...), "\n"), 400)
}

// folderKeyed reports whether a known failure of a file tool is one of
// its folder (its trigger is the folder's glob), for any file tool.
func folderKeyed(c *Candidate) bool {
	return c.Kind == KindKnown && c.Tool != "Bash" && strings.Contains(c.Trigger, "*")
}

// missingPath is the error class of a file that does not exist
// (lessons.ErrorClass), and missingFile an error line (or output) that
// says so in words the class does not know ("Error: File not found:
// lib/a.ts"); a retry that replaced such a path reads it too
// (replacedMissing).
const missingPath = "missing path"

var missingFile = regexp.MustCompile(`(?i)\b(not found|no such file|does not exist|doesn't exist|cannot find|can't find|could not find|enoent)\b`)

// namesPath reports whether an error line names the call's path, or
// quotes a path that ends it: "Access denied: '/home/u/plans/a.md' is
// protected" refuses the path, and the refusal may hold for its folder.
func namesPath(line, p string) bool {
	if strings.Contains(line, p) {
		return true
	}
	for _, q := range quotedValue.FindAllStringSubmatch(line, 4) {
		if v := q[1] + q[2]; len(v) >= 3 && strings.HasSuffix(p, v) {
			return true
		}
	}
	return false
}

// missingCommand starts the error class of a program the shell did not
// find (lessons.ErrorClass).
const missingCommand = "command not found: "

// directoryKind is the error class of a file tool given a directory
// where it reads or writes a file (EISDIR, "… is a directory").
var directoryKind = regexp.MustCompile(`(?i)\bEISDIR\b|\bis a directory\b`)

// fileStem is a path's file name without its extension.
func fileStem(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	return strings.TrimSuffix(base, path.Ext(base))
}

// folderGlob is a glob of the files of p's folder with p's extension,
// matching wherever the folder lies ("plans/*.md" for
// /home/u/.claude/plans/calm-otter.md): the folder, not the one file.
func folderGlob(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	dir, base := path.Split(p)
	glob := "*" + path.Ext(base)
	if d := path.Base(strings.TrimSuffix(dir, "/")); d != "" && d != "." && d != "/" && !strings.ContainsAny(d, "*?[{") {
		glob = d + "/" + glob
	}
	return glob
}

// knownSaw sees a call that worked: it got past the remembered
// failures of another tool than the shell when it is the same tool on the
// same file, the same name elsewhere, or a file inside the failed path
// (relatedPath; a shell failure is got past by a retry, gotPast); and a
// call of a shell failure's family worked after it (whatever edits came
// between: then nothing says the failure came back to stay).
func (a *analyzer) knownSaw(rec *callRec) {
	c := rec.call
	fam := ""
	for i := range a.known {
		k := &a.known[i]
		f := k.rec.call
		if k.refused && (sameCall(f, c) && rec.seq == k.rec.seq+1 ||
			f.Tool == "Bash" && c.Tool == "Bash" && f.Args != c.Args && doing(f.Command) == doing(c.Command)) {
			// refused once, then let through unchanged right away (a
			// hook that warns once, a rule changed at the prompt), or
			// with another setting of the shell tool (out of the
			// sandbox: the lesson on the error says so). The same call
			// after other calls went through for what they changed.
			k.passed = true
		}
		switch {
		case f.Tool != "Bash":
			// the same tool on the file, or another that writes it
			// where the failed one wrote (a Write refused, then an Edit)
			writes := writing(f.Tool) && writing(c.Tool)
			if (f.Tool == c.Tool || writes && f.Path == c.Path) && relatedPath(f.Path, c.Path) {
				k.rec.fixed, k.worked = true, true
			}
		case c.Tool == "Bash" && !k.worked:
			if fam == "" {
				fam = lessons.CommandFamily(c.Command).String()
			}
			// a call that switched the check off went around it
			k.worked = fam == k.family && checkSkipped(f.Command, c.Command) == ""
		}
	}
}

// explained reports whether a finding of the session is about call id.
func (a *analyzer) explained(id string) bool {
	for _, f := range a.findings {
		if f.Call == id {
			return true
		}
	}
	return false
}

// knownText writes a known failure's lesson, for the sessions it was
// seen in so far.
func (c *Candidate) knownText() {
	line := errorHeadline(lessons.StripANSI(c.Problem)) // words to read, not a terminal's codes
	n := len(c.Sessions)
	what := c.Tool
	switch {
	case c.Tool == "Bash":
		// the simple command that failed, as its key reads it (Family),
		// not the line's first (an echo of a banner before the check)
		what = cmp.Or(strings.Trim(c.Family, "`"), headWords(c.Trigger), "the command")
	case folderKeyed(c):
		what = "file tools on " + c.Trigger
	case c.Trigger != "":
		what += " on " + c.Trigger
	}
	if said := hookMessage(c.Problem); said != "" {
		// a hook of the agent's set-up: its own words say what it
		// checks, and they come whatever the work did before
		line = clip(said, 300)
		c.Summary = secret.Sentence(shorten("A hook refuses `"+what+"` here: "+line, maxSummary))
		c.Solution = "A hook of this project's agent set-up refused `" + what + "` in " + sessionCount(n) +
			", with this message. Do what it asks before you make such a call again; do not work around the hook."
		return
	}
	if c.Tool != "Bash" {
		c.Summary = secret.Sentence(shorten("`"+what+"` fails before any change: "+line, maxSummary))
		c.Solution = "`" + what + "` failed with this error in " + sessionCount(n) +
			" of this project, before any change too: your changes did not cause it. "
		if lessons.IsRefusal(lessons.ErrorClass(c.Problem)) {
			// a refusal names its cause: a hook, a permission, a sandbox
			c.Solution += "The environment refuses it. Do not try it again as it is, nor work around the refusal; use another way to do what you meant, or ask."
			return
		}
		if ownProgramMissing.MatchString(line) {
			// the tool could not start its own program: no call of it works
			c.Solution += "The tool could not start its own program here, so no call of it will work: do not call it again; " +
				"do the same work through the shell or another tool."
			return
		}
		c.Solution += "Do not try it again as it is: do what you meant another way (a narrower call, another tool), or say that it fails and go on."
		return
	}
	head, class := what, lessons.ErrorClass(c.Problem)
	if exe, ok := strings.CutPrefix(class, missingCommand); ok && exe != "" {
		// a program this machine lacks: no check of the work fails, the
		// call cannot run at all
		c.Summary = secret.Sentence(shorten("`"+exe+"` is not installed here: "+line, maxSummary))
		c.Solution = "`" + exe + "` was not found on this machine in " + sessionCount(n) +
			" of this project, before any change. Do not call it; do what you meant another way " +
			"(a tool the project already uses, or the language at hand), or ask for it to be installed."
		return
	}
	if class == lessons.NoOutputClass {
		// an interpreter that failed printing nothing (knownOf): it did
		// not run what it was given
		c.Summary = secret.Sentence(shorten("`"+head+"` fails here and prints nothing: "+line, maxSummary))
		c.Solution = "`" + head + "` exited with this status and printed nothing, whatever it was given, in " + sessionCount(n) +
			" of this project, before any change: it does not run here (a stub or an alias in its place, as Windows' store alias for python is). " +
			"Do not call it again; use the interpreter the project's other calls use, or the full path of a real one, or ask."
		return
	}
	if class == lessons.KilledClass {
		// a kill that ended the shell running it (knownOf): whatever it
		// was given, the steps after it on the line never ran
		c.Summary = secret.Sentence(shorten("`"+head+"` ended the shell that ran it: "+line, maxSummary))
		c.Solution = "`" + head + "` was ended by a signal with the shell that ran it, printing nothing, in " + sessionCount(n) +
			" of this project: it kills processes by a pattern that matched that shell's own command line (as `pkill -f` does), " +
			"so nothing after it on the line ran. Kill by process id, or write the pattern so it cannot match itself " +
			"(`pgrep -f '[p]attern'`), and run what comes after it in a call of its own."
		return
	}
	if lessons.IsRefusal(class) {
		// the environment, the agent's permissions or the shell, not
		// the checkout: no check of the work fails, the call is not let
		// through (any command that meets it: its trigger is the
		// refusal's), whatever the session had changed; the line quoted
		// is the refusal's, not another of the output
		if l, _ := lessons.ErrorLine(lessons.StripANSI(c.Problem)); l != "" {
			line = l
		}
		c.Summary = secret.Sentence(shorten("Refused here (`"+head+"`): "+line, maxSummary))
		c.Solution = lessons.RefusalSaid(class) + ": calls such as `" + head + "` were refused so in " + sessionCount(n) +
			" of this project; the refusal does not come from the work. "
		if !lessons.EnvRefusal(class) {
			c.Solution += "Write the command line so that the shell takes it."
			return
		}
		c.Solution += "Do not try them again as they are, nor work around the refusal; do what you meant another way, or ask the user to run it or to allow it."
		return
	}
	c.Summary = secret.Sentence(shorten("`"+head+"` fails before any change: "+line, maxSummary))
	if n == 1 {
		// one session is a hint, not proof: said as a reminder (design.md
		// "Reminders"), it must not talk the agent out of its own bug
		c.Solution = "`" + head + "` failed with this error in an earlier session of this project, before any change there: " +
			"it may come with the checkout or the environment rather than your work. Before you rework your changes for it, " +
			"check whether it fails without them; if it does, say that it failed before you started and go on."
		return
	}
	c.Solution = "`" + head + "` failed with this error in " + sessionCount(n) +
		" of this project, before any change too: it comes with the checkout or the environment, not from your work. " +
		"Do not revert or rewrite your changes to make it pass, and do not take fixing it on as part of the task; " +
		"say that it failed before you started, and check your change with a narrower run."
}

// ownProgramMissing is a tool's error when the program it runs could not
// be started ("ENOENT: no such file or directory, posix_spawn '…/rg'",
// Node's "spawn rg ENOENT").
var ownProgramMissing = regexp.MustCompile(`\bENOENT\b.*\b(?:posix_)?spawn\b|\bspawn\s+\S+\s+ENOENT\b`)

// sessionCount is n sessions in words ("1 session", "3 sessions").
func sessionCount(n int) string {
	if n == 1 {
		return "1 session"
	}
	return strconv.Itoa(n) + " sessions"
}

// gotPast reports whether a call that worked got past a failed one: the
// same command family, or the same words but for one mistyped (make biuld,
// then make build). Another command of the same tool (npm run e2e, then
// npm run typecheck) is not, nor the same call with a check switched off
// (git commit --no-verify).
func gotPast(failed, worked *Call) bool {
	if failed.Tool != "Bash" || worked.Tool != "Bash" {
		return failed.Path != "" && failed.Path == worked.Path
	}
	if checkSkipped(failed.Command, worked.Command) != "" {
		return false // around it: the check still fails
	}
	if lessons.CommandFamily(failed.Command).String() == lessons.CommandFamily(worked.Command).String() {
		return true
	}
	f, w := strings.Fields(failed.Command), strings.Fields(worked.Command)
	if len(f) != len(w) {
		return false
	}
	diff := -1
	for i := range f {
		if f[i] != w[i] {
			if diff >= 0 {
				return false
			}
			diff = i
		}
	}
	return diff >= 0 && editDistance(f[diff], w[diff]) <= 2
}

// editDistance is the Levenshtein distance of two short words (a swap
// of two letters counts two).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// familyCommands is the command trigger of a shell command's known
// failure, keyed by its family ("pytest | KeyError", "npm run build |
// …"): the program and the subcommand the family reads, not a script's
// name nor its path (the error trigger tells one failure from another).
// The failing call's first word after the program is no part of it
// unless the family reads it as a subcommand: a file, a folder or a
// value, the next session fails the same way with another. cmds is kept
// when the key names no family.
func familyCommands(key string, cmds []string) []string {
	fam := familyOf("Bash " + key)
	if fam.Exe == "" || fam.Exe == "Bash" || strings.Contains(fam.Exe, "\n") {
		return cmds // no family, the environment's ("Bash | …": any command), or a key split at a line
	}
	sub, _, _ := strings.Cut(fam.Sub, " ")
	if !subcommandWord.MatchString(sub) {
		sub = "" // a script's name (python tools/x.py): written with its path
	}
	return []string{headPattern(fam.Exe, sub)}
}
