package scanner

import (
	"cmp"
	"path"
	"strings"

	"github.com/lessons-dev/lessons"
)

// A shell tool that takes its working directory as an argument (Codex's
// workdir, Gemini CLI's dir_path, opencode's workdir) lets the agent
// run a command in the wrong folder: a script or a path that exists in
// the project's nested checkout is not found from its parent. The same
// command run again in another directory that worked is the fix, and
// its lesson is where to run it; the command's words alone cannot tell
// the two calls apart, so the lesson comes after the failure's error.

// otherWorkdir is the directory the failed call ran in (from) and the
// one a successful call ran its very command in (to), when that is
// another and the failure was about the world it ran in (something not
// found there, no repository: environmental); "" for both otherwise. A
// call naming no directory ran in the session's. A Windows path is read
// with forward slashes.
func (a *analyzer) otherWorkdir(f *failure, ok *Call) (from, to string) {
	c := f.rec.call
	if c.Tool != "Bash" || ok.Tool != "Bash" || c.Command != ok.Command || c.Dir == ok.Dir || f.res == nil {
		return "", ""
	}
	from, to = slashed(cmp.Or(c.Dir, a.sess.Project)), slashed(cmp.Or(ok.Dir, a.sess.Project))
	if !absPath(from) || !absPath(to) || from == to {
		return "", ""
	}
	if !environmental.MatchString(strings.ToLower(f.res.errorText())) {
		return "", "" // a failure the folder does not explain
	}
	return from, to
}

// slashed is a directory cleaned, with a Windows path's backslashes as
// slashes.
func slashed(dir string) string {
	if d, ok := driveSlashed(dir); ok {
		dir = d
	}
	return path.Clean(dir)
}

// emitWorkdir emits the lesson of a failure in directory failed that the
// same command got past in directory dir (otherWorkdir: its error text
// says something of the world, so it has one).
func (a *analyzer) emitWorkdir(f *failure, failed, dir string) {
	c := f.rec.call
	where := "`" + pathKey(dir, a.sess.Project) + "`"
	switch sub, below := strings.CutPrefix(dir, strings.TrimSuffix(failed, "/")+"/"); {
	case below:
		// named from where it failed: the session's own folder may be
		// either, and its path differs from checkout to checkout
		where = "the subfolder `" + sub + "`"
	case dir == slashed(a.sess.Project):
		where = "the project's folder" // its path differs from checkout to checkout
	}
	wrong := pathKey(failed, a.sess.Project)
	a.findings = append(a.findings, finding{
		Kind: KindRetry, Line: f.line, UID: f.uid, Tool: "Bash", Trigger: c.Command, Fixed: c.Command,
		Call: f.rec.id, Problem: f.res.errorText(), Workdir: where,
		Change: "run it in " + where,
		Solution: "`" + shownCommand(c.Command, 200) + "` failed in `" + wrong + "` and worked, unchanged, in " + where +
			": give it that working directory.",
		Signals: Signals{FixConfirmed: true},
	})
}

// inWorkdir builds the candidate of a retry that only ran its command in
// another directory: triggered by its command and narrowed to its
// error, said right after the failure. ok is false when the error has no
// line to narrow to: before every run of the command it would come in
// the right folder too.
func (c *Candidate) inWorkdir(f finding) bool {
	cmd := c.Trigger
	p := commandPattern(cmd)
	if p == "" {
		return false
	}
	c.Fixed = ""
	c.Triggers = lessons.Trigger{Commands: []string{p}}
	c.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: cmd}}}
	exe, sub := doerHead(cmd)
	c.Summary = strings.TrimSpace(exe+" "+sub) + ": " + Redact(f.Change)
	return c.narrowToError()
}
