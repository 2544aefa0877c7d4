package scanner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// missingProgram writes four sessions in which a program is missing from
// the machine: in two it fails the first call, before any change (a
// known failure of the program), in two after an edit, and nothing gets
// past it (a lesson on the error of the build).
func missingProgram(t *testing.T) (dir, missing string) {
	dir, missing = t.TempDir(), "/bin/bash: line 1: go: command not found"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("go vet ./...", 127, missing),
			run("ls cmd", 0, "server"),
		})
	}
	for _, id := range []string{"s3", "s4"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/cmd/server/main.go", "package main"),
			run("go build ./cmd/server", 127, missing),
			run("ls cmd", 0, "server"),
			run("go build ./cmd/server 2>&1", 127, missing),
		})
	}
	return dir, missing
}

// TestOneFailureUnderTwoKinds: a program missing from the machine fails
// the first call of three sessions, and nothing gets past it. The scanner
// reads it as a known failure of the program (any call of it) and as a
// lesson on the error of the build that failed; one lesson is said (a
// reminder at the failure), with the other's sessions, and the other is
// folded.
func TestOneFailureUnderTwoKinds(t *testing.T) {
	state := t.TempDir()
	dir, _ := missingProgram(t)
	scan(t, state, Options{Paths: []string{dir}})
	said := func() []Candidate {
		var about []Candidate
		for _, c := range unfolded(t, state) {
			if strings.Contains(c.Problem, "command not found") && (c.Reminder(lessons.DefaultConfig()) || c.Confidence >= lessons.DefaultConfig().MinConfidence) {
				about = append(about, c)
			}
		}
		return about
	}
	about := said()
	if len(about) != 1 {
		t.Fatalf("%d candidates said for one missing program, want 1: %v", len(about), summaries(about))
	}
	if len(about[0].Sessions) != 4 {
		t.Errorf("listed candidate seen in %d sessions, want 4", len(about[0].Sessions))
	}
	folded := 0
	for _, c := range candidates(t, state) {
		if c.Status == StatusFolded {
			folded++
		}
	}
	if folded != 1 {
		t.Errorf("%d candidates folded, want the other kind's 1", folded)
	}
	// a scan again reads the same: the fold holds, and counts nothing twice
	scan(t, state, Options{Paths: []string{dir}, Full: true})
	if got := said(); len(got) != 1 || len(got[0].Sessions) != 4 {
		t.Errorf("after a second scan: %v", summaries(got))
	}
}

// TestLearnerFoldsOneFailureUnderTwoKinds: a replay that learns as it
// goes folds the two kinds as a scan does: after the four sessions one
// lesson for the missing program is live (new, proposed or said as a
// reminder), and the fold is among what Recheck reports changed.
func TestLearnerFoldsOneFailureUnderTwoKinds(t *testing.T) {
	dir, _ := missingProgram(t)
	var ids, rechecked []string
	l := learnEach(t, dir, func(l *Learner, s *LoggedSession) {
		for _, c := range s.Candidates {
			ids = append(ids, l.Resolve(c.ID))
		}
		rechecked = append(rechecked, l.Recheck()...)
	})
	slices.Sort(ids)
	var live []string
	for _, id := range slices.Compact(ids) {
		c, _ := l.Candidate(id)
		if c.Status == StatusNew && (c.Confidence >= lessons.DefaultConfig().MinConfidence || c.Reminder(lessons.DefaultConfig())) && strings.Contains(c.Problem, "command not found") {
			live = append(live, c.Kind+": "+c.Summary)
		}
	}
	if len(live) != 1 {
		t.Errorf("%d live lessons for one missing program, want 1: %q", len(live), live)
	}
	if len(rechecked) == 0 {
		t.Errorf("Recheck reported no change: a replay would keep the folded lesson live")
	}
}

// TestFoldKindsKeepsTheBetterSupported: a precondition fix and a lesson
// on the same error of the same command fold into the one with the higher
// confidence, which gains the other's session; a known failure of one
// missing file is not the file tool's own error, however alike their
// error triggers, and stays.
func TestFoldKindsKeepsTheBetterSupported(t *testing.T) {
	errs := []string{`error:\s+Cannot\s+find\s+module\s+\S+`}
	bun := []string{headPattern("bun", "test")}
	prov := func(session string) []Provenance {
		return []Provenance{{SessionID: session, Key: session, Call: session + ":1"}}
	}
	pre := &Candidate{ID: "b", Kind: KindPrecondition, Status: StatusNew, Tool: "Bash", Confidence: 0.7, Sessions: []string{"s1"}, Provenance: prov("s1"),
		Triggers: lessons.Trigger{Commands: bun, Errors: errs},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "bun test", Error: "error: Cannot find module '@a/core'"}}}}
	onErr := &Candidate{ID: "a", Kind: KindError, Status: StatusNew, Tool: "Bash", Confidence: 0.45, Sessions: []string{"s2"}, Provenance: prov("s2"),
		Fixed: "bun run build && bun test", Triggers: lessons.Trigger{Commands: bun, Errors: errs},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "bun test src", Error: "error: Cannot find module '@a/core'"}}}}
	missing := []string{`File\s+does\s+not\s+exist\.`}
	readErr := &Candidate{ID: "c", Kind: KindError, Status: StatusNew, Tool: "Read", Confidence: 0.5, Sessions: []string{"s3"},
		Triggers: lessons.Trigger{Tools: []string{"Read"}, Errors: missing},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Read", Path: "a/x.go", Error: "File does not exist."}}}}
	readKnown := &Candidate{ID: "d", Kind: KindKnown, Status: StatusNew, Tool: "Read", Confidence: 0.5, Sessions: []string{"s4"},
		Triggers: lessons.Trigger{Tools: []string{"Read"}, Paths: []string{"MEMORY.md"}, Errors: missing},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Read", Path: "/home/u/memory/MEMORY.md", Error: "File does not exist."}}}}
	foldKinds([]*Candidate{onErr, pre, readErr, readKnown})
	if pre.Status != StatusNew || onErr.Status != StatusFolded {
		t.Errorf("statuses %s (precondition, 0.7) and %s (error, 0.45): want the precondition listed, the error folded", pre.Status, onErr.Status)
	}
	if len(pre.Sessions) != 2 {
		t.Errorf("the listed candidate has sessions %v, want the folded one's too", pre.Sessions)
	}
	if readErr.Status != StatusNew || readKnown.Status != StatusNew {
		t.Errorf("statuses %s and %s: a missing file's known failure is not the file tool's own error", readErr.Status, readKnown.Status)
	}
}

// TestSupportOrderUncappedFirst: a capped lesson on the error (its
// trigger fires on most calls of its command: never said) does not
// outrank, for a little more confidence, the known failure of the same
// error that is said now: folded into the capped one, the failure's
// reminder was lost.
func TestSupportOrderUncappedFirst(t *testing.T) {
	capped := &Candidate{ID: "a", Kind: KindError, Fixed: "PATH=/opt/go/bin go build", Confidence: 0.45, Sessions: []string{"s1"},
		Signals: Signals{FixConfirmed: true, Broad: true}}
	known := &Candidate{ID: "b", Kind: KindKnown, Confidence: 0.4, Sessions: []string{"s2"}}
	cs := []*Candidate{capped, known}
	slices.SortFunc(cs, supportOrder)
	if cs[0] != known {
		t.Errorf("supportOrder puts %s (%s) first: want the known failure, which is not capped", cs[0].ID, cs[0].Kind)
	}
}

// remoteDown is what git prints when it cannot reach the remote.
const remoteDown = "ssh: connect to host example.org port 22: Operation timed out\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists."

// TestChainFailureUnderTheStageThatFailed: the remote cannot be reached
// in four sessions, after some work: twice a bare push fails, once a
// chain that adds, commits (echoing a message that says "add") and
// pushes, once a chain that pulls, pushes and closes with a status. One
// failure: one candidate (nothing got past it: a reminder after the
// error), under the push, with the sessions of all four, and none is
// learned under the add or the status.
func TestChainFailureUnderTheStageThatFailed(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	cmds := []string{
		"git push",
		"git push origin main",
		`git add a.go && git commit -m "add the parser" && git push`,
		"git pull --rebase && git push && git status --short",
	}
	outs := []string{remoteDown, remoteDown, "[main 1a2b3c4] add the parser\n 1 file changed, 3 insertions(+)\n" + remoteDown, remoteDown}
	for i, cmd := range cmds {
		writeClaude(t, dir, "/p", "s"+string(rune('1'+i)), []step{
			write("/p/a.go", "package a"),
			run(cmd, 128, outs[i]),
			run("ls", 0, "a.go"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	var about []Candidate
	for _, c := range unfolded(t, state) {
		if strings.Contains(c.Problem, "Could not read from remote") {
			about = append(about, c)
		}
	}
	if len(about) != 1 {
		t.Fatalf("%d candidates for one unreachable remote, want 1: %v", len(about), summaries(about))
	}
	if !strings.Contains(about[0].Summary, "git push") || len(about[0].Sessions) != 4 {
		t.Errorf("%q from %d sessions, want it about git push, from 4", about[0].Summary, len(about[0].Sessions))
	}
	for _, c := range candidates(t, state) {
		if strings.Contains(c.Summary, "git add") || strings.Contains(c.Summary, "git status") {
			t.Errorf("a failure to reach the remote learned under a stage that ran fine or never ran: %s", c.Summary)
		}
	}
}

// TestOneProgramOneFailure: the remote cannot be reached in four
// sessions of one project, twice at a push and twice at a fetch. One
// error of one program in one project: one candidate stays, with the
// sessions of both, and the other is folded.
func TestOneProgramOneFailure(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	for i, cmd := range []string{"git push", "git push", "git fetch origin", "git fetch origin"} {
		writeClaude(t, dir, "/p", "s"+string(rune('1'+i)), []step{
			write("/p/a.go", "package a"),
			run(cmd, 128, remoteDown),
			run("ls", 0, "a.go"),
		})
	}
	// another project's fetch is another team's lesson
	for _, id := range []string{"o1", "o2"} {
		writeClaude(t, dir, "/q", id, []step{
			write("/q/a.go", "package a"),
			run("git fetch origin", 128, remoteDown),
			run("ls", 0, "a.go"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	var about []Candidate
	for _, c := range unfolded(t, state) {
		if strings.Contains(c.Problem, "Could not read from remote") && slices.Contains(c.Projects, "/p") {
			about = append(about, c)
		}
	}
	if len(about) != 1 {
		t.Fatalf("%d candidates for one unreachable remote in /p, want 1: %v", len(about), summaries(about))
	}
	if len(about[0].Sessions) != 4 || slices.Contains(about[0].Projects, "/q") {
		t.Errorf("candidate seen in %d sessions of %v, want 4 of /p alone", len(about[0].Sessions), about[0].Projects)
	}
}

// unfolded are the candidates of state that are not folded into another:
// proposed, or said as reminders after their error.
func unfolded(t *testing.T, state string) []Candidate {
	t.Helper()
	var out []Candidate
	for _, c := range candidates(t, state) {
		if c.Status != StatusFolded {
			out = append(out, c)
		}
	}
	return out
}

// TestFoldKindsFixRefutesKnown: a program's known failure ("not
// installed", two sessions) and a lesson on the same error that found a
// fix (the program by its full path, said after the error only) fold into
// the lesson with the fix, however their confidence compares: the fix
// shows the failure was not one nothing gets past.
func TestFoldKindsFixRefutesKnown(t *testing.T) {
	errs := []string{`go:\s+command\s+not\s+found`}
	ex := lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "go build ./...", Error: "/bin/bash: line 1: go: command not found"}}}
	known := &Candidate{ID: "a", Kind: KindKnown, Status: StatusNew, Tool: "Bash", Confidence: 0.6, Sessions: []string{"s1", "s2"},
		Triggers: lessons.Trigger{Commands: []string{headPattern("go", "")}, Errors: errs}, Examples: ex}
	fixed := &Candidate{ID: "b", Kind: KindError, Status: StatusNew, Tool: "Bash", Confidence: 0.45, Sessions: []string{"s1", "s2"},
		Fixed: "/usr/local/go/bin/go build ./...", Triggers: lessons.Trigger{Commands: []string{headPattern("go", "")}, Errors: errs}, Examples: ex}
	foldKinds([]*Candidate{known, fixed})
	if fixed.Status != StatusNew || known.Status != StatusFolded {
		t.Errorf("statuses %s (the fix) and %s (known): want the fix listed, the known failure folded", fixed.Status, known.Status)
	}
}

// TestFoldKindsTwinsOfTwins: a missing package's precondition fix seen in
// project /a, the same error's lesson seen in /a and /b (another kind: it
// joins by its trigger), and a precondition fix of the same program seen
// in /b alone. The third is the same failure once the second's evidence
// brings /b in, whichever order the three are compared in: one is listed.
func TestFoldKindsTwinsOfTwins(t *testing.T) {
	errs := []string{`Cannot\s+find\s+module\s+'@a/core'`}
	prov := func(session, project string) Provenance {
		return Provenance{SessionID: session, Key: session, Call: session + ":1", Project: project}
	}
	cand := func(id, kind string, conf float64, cmd string, ps ...Provenance) *Candidate {
		c := &Candidate{ID: id, Kind: kind, Status: StatusNew, Tool: "Bash", Confidence: conf,
			Triggers: lessons.Trigger{Tools: []string{"Bash"}, Errors: errs},
			Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: cmd, Error: "error: Cannot find module '@a/core'"}}}}
		for _, p := range ps {
			c.add(p)
		}
		return c
	}
	best := cand("a", KindPrecondition, 0.9, "bun run typecheck", prov("s1", "/a"), prov("s2", "/a"))
	sameProgram := cand("b", KindPrecondition, 0.6, "cd pkg && bun test", prov("s3", "/b"))
	otherKind := cand("c", KindError, 0.5, "node build.js", prov("s4", "/a"), prov("s5", "/b"))
	foldKinds([]*Candidate{best, sameProgram, otherKind})
	if best.Status != StatusNew || sameProgram.Status != StatusFolded || otherKind.Status != StatusFolded {
		t.Errorf("statuses %s, %s, %s: want the best listed and both twins folded into it", best.Status, sameProgram.Status, otherKind.Status)
	}
	if len(best.Sessions) != 5 {
		t.Errorf("listed candidate has sessions %v, want all five", best.Sessions)
	}
}

// learnEach reads the sessions under dir in order into a Learner, as
// replay --learn does, and calls each after each session is added.
func learnEach(t *testing.T, dir string, each func(*Learner, *LoggedSession)) *Learner {
	t.Helper()
	l := NewLearner(DefaultWeights())
	_, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{dir}, Workers: 1, Candidates: true},
		func(s *LoggedSession) *LoggedSession { return s },
		func(s *LoggedSession) error {
			l.Saw(s)
			l.Add(s.Candidates)
			each(l, s)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
