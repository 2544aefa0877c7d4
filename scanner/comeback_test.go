package scanner

import (
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// interpreterSessions writes the first session of a project: python3
// lacks a package the project's virtualenv has, and the agent switches
// interpreter (a lesson after the error). then, when set, is a later
// session that meets the same error and gets past it otherwise.
func interpreterSessions(t *testing.T, dir string, then []step) {
	t.Helper()
	fail := "Traceback (most recent call last):\nModuleNotFoundError: No module named 'httpx'"
	writeClaude(t, dir, "/p", "s1", []step{
		run(`python3 -c "import httpx"`, 1, fail),
		run(`.venv/bin/python -c "import httpx"`, 0, ""),
	})
	if then != nil {
		writeClaude(t, dir, "/p", "s2", append([]step{run(`python3 -c "import httpx"`, 1, fail)}, then...))
	}
}

// TestProposedOnceTheFixCameBack: a lesson after an error, seen in one
// session, is said after that error but not proposed to the team. When
// the same failure comes back in another session, got past another way
// there or not at all, the first session's fix is still one session's:
// it stays a reminder, its failure counted in two. Got past the same way
// again, it is proposed: an incremental scan that reads only the new
// session raises the one it stored.
func TestProposedOnceTheFixCameBack(t *testing.T) {
	cfg := lessons.DefaultConfig()
	retry := func(cs []Candidate) *Candidate {
		for i := range cs {
			if cs[i].Kind == KindRetry && cs[i].Fixed != "" && cs[i].Fixed[0] == '.' {
				return &cs[i]
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name     string
		then     []step
		proposed bool
	}{
		{"another way", []step{run(`uv run python -c "import httpx"`, 0, "")}, false},
		{"nothing", []step{say("httpx is missing here; I will leave it.")}, false},
		{"the same way", []step{run(`.venv/bin/python -c "import httpx"`, 0, "")}, true},
	} {
		dir, state := t.TempDir(), t.TempDir()
		interpreterSessions(t, dir, nil)
		scan(t, state, Options{Paths: []string{dir}})
		c := retry(candidates(t, state))
		if c == nil || len(c.Triggers.Errors) == 0 {
			t.Fatalf("%s: no retry after the error: %+v", tc.name, c)
		}
		if c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
			t.Errorf("%s, one session: confidence %.2f, reminder %v: want said after the error, not proposed", tc.name, c.Confidence, c.Reminder(cfg))
		}
		interpreterSessions(t, dir, tc.then)
		scan(t, state, Options{Paths: []string{dir}})
		c = retry(candidates(t, state))
		switch {
		case c == nil || c.FailedIn != 2:
			t.Errorf("%s, the failure back in a second session: %+v; want its failure seen in 2", tc.name, c)
		case tc.proposed && (c.Confidence < cfg.MinConfidence || len(c.Sessions) != 2):
			t.Errorf("%s: confidence %.2f, fixed in %d sessions: want proposed", tc.name, c.Confidence, len(c.Sessions))
		case !tc.proposed && (c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg)):
			t.Errorf("%s: confidence %.2f, reminder %v: want still said after the error, not proposed", tc.name, c.Confidence, c.Reminder(cfg))
		}
	}
}

// TestFailureOfAnotherProjectIsNoComeback: the same failure in a session
// of another project is that project's mistake: the first project's
// lesson stays a reminder.
func TestFailureOfAnotherProjectIsNoComeback(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	interpreterSessions(t, dir, nil)
	writeClaude(t, dir, "/q", "s2", []step{run(`python3 -c "import httpx"`, 1, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'httpx'"),
		run(`uv run python -c "import httpx"`, 0, "")})
	scan(t, state, Options{Paths: []string{dir}})
	for _, c := range candidates(t, state) {
		if c.Kind == KindRetry && strings.HasPrefix(c.Fixed, ".venv") && (c.Confidence >= lessons.DefaultConfig().MinConfidence || c.FailedIn != 1) {
			t.Errorf("%s: confidence %.2f, its failure in %d sessions: want a reminder, seen in its own project's one", c.Summary, c.Confidence, c.FailedIn)
		}
	}
}

// TestLearnerProposesOnceTheFixCameBack: a replay that learns as it goes
// raises the lesson as the scan does, when the second session's
// candidates are added, and Recheck reports it changed.
func TestLearnerProposesOnceTheFixCameBack(t *testing.T) {
	dir := t.TempDir()
	interpreterSessions(t, dir, []step{run(`.venv/bin/python -c "import httpx"`, 0, "")})
	var first string
	var after []float64
	var second []string
	learnEach(t, dir, func(l *Learner, s *LoggedSession) {
		for _, c := range s.Candidates {
			if c.Kind != KindRetry {
				continue
			}
			if first == "" {
				first = l.Resolve(c.ID)
			} else {
				second = append(second, l.Resolve(c.ID))
			}
		}
		c, _ := l.Candidate(first)
		after = append(after, c.Confidence)
	})
	min := lessons.DefaultConfig().MinConfidence
	if len(after) != 2 || after[0] >= min || after[1] < min {
		t.Errorf("confidence after each session %v: want below %v, then at or above", after, min)
	}
	if !slices.Contains(second, first) {
		t.Errorf("the second session's retries resolve to %q: want the raised lesson %s, so that a replay takes it up", second, first)
	}
}

// TestOptionLessonSaidAfterItsErrorUntilItCameBack: a retry that drops
// an option the command does not take fires before any call with that
// option. Seen once, it is said after the error instead (the hook's
// reminder carries an error trigger the candidate does not); once
// another session dropped it too it is proposed as it is, before the
// call.
func TestOptionLessonSaidAfterItsErrorUntilItCameBack(t *testing.T) {
	cfg := lessons.DefaultConfig()
	once := []step{run("gh pr diff 12 --stat", 1, "unknown flag: --stat"), run("gh pr diff 12", 0, "diff --git a/x b/x")}
	c := find(scanned(t, once), KindRetry, "gh pr diff")
	if c == nil || len(c.Triggers.Errors) != 0 {
		t.Fatalf("retry %+v: want one keyed on the option, with no error trigger", c)
	}
	said, reminds := c.AsReminder(cfg)
	if c.Confidence >= cfg.MinConfidence || !reminds || len(said.Triggers.Errors) == 0 || !errorFires(t, said, "unknown flag: --stat") {
		t.Errorf("one session: confidence %.2f, reminder %v, said with error triggers %q: want said after the error only",
			c.Confidence, c.Reminder(cfg), said.Triggers.Errors)
	}
	c = find(scanned(t, once, []step{run("gh pr diff 7 --stat", 1, "unknown flag: --stat"), run("gh pr diff 7", 0, "diff --git a/y b/y")}), KindRetry, "gh pr diff")
	if c == nil || c.Confidence < cfg.MinConfidence || len(c.Triggers.Errors) != 0 || c.Reminder(cfg) {
		t.Errorf("the same fix in a second session: %+v; want it proposed, before the call", c)
	}
}
