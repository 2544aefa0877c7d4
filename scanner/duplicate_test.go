package scanner

import (
	"os"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// One lesson per mistake: the jest mistake of the labelled set is seen
// in eight sessions, four of them both as a #lesson tag and as a retry of
// the same failing call. It is one candidate, in the agent's words, with
// one occurrence per session.
func TestSameMistakeIsOneCandidate(t *testing.T) {
	_, _, shown := scanLabelled(t, false)
	var jest []Candidate
	for _, c := range shown {
		if strings.Contains(c.Trigger, "npm test") {
			jest = append(jest, c)
		}
	}
	if len(jest) != 1 {
		for _, c := range jest {
			t.Logf("%s %s %q", c.ID, c.Kind, c.Summary)
		}
		t.Fatalf("the jest mistake is %d candidates, want 1", len(jest))
	}
	c := jest[0]
	if c.Kind != KindTag || c.Occurrences != 8 || len(c.Sessions) != 8 || !c.Signals.FixConfirmed {
		t.Errorf("jest candidate: kind %s, %d occurrences in %d sessions, signals %+v; want the tag, 8 in 8, fix confirmed",
			c.Kind, c.Occurrences, len(c.Sessions), c.Signals)
	}
	if commandFires(c.Triggers, "CI=true npm test -- --watchAll=false") || !commandFires(c.Triggers, "npm test") {
		t.Errorf("jest trigger %+v: fires on the fix, or not on the mistake", c.Triggers)
	}
}

// A candidate that repeats an active lesson adds its evidence to that
// lesson's record instead of waiting for review; one that only shares
// the command does not, nor does a user's reason the lesson does not say.
func TestCandidateRepeatingALessonIsNotReviewed(t *testing.T) {
	jestLesson := lessons.Lesson{
		ID: "01M81T7GDQXA8038WYS4KKXTA1", Slug: "jest-watch", Summary: "jest --watch never exits; run once with CI=true",
		Problem: "Watch mode waits for file changes forever.", Solution: "Run `CI=true npm test`.",
		Triggers: lessons.Trigger{Commands: []string{`(?:^|[;&|(\n\s])npm\s+(?:run\s+)?test(?![\w:.-])`}, Unless: []string{`--watchAll=false`, `\bCI=(?:true|1)\b`}},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "npm test"}}},
	}
	pushLesson := lessons.Lesson{
		ID: "01M81T7GDQXA8038WYS4KKXTA2", Slug: "force-push", Summary: "never force push",
		Problem: "A force push rewrites shared history.", Solution: "Push a new commit instead.",
		Triggers: lessons.Trigger{Commands: []string{`git\s+push\s+(?:-f|--force)\b`}},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "git push --force"}}},
	}
	dir, state := t.TempDir(), t.TempDir()
	copyLabelled(t, dir)
	calls := 0
	scan(t, state, Options{Paths: []string{dir}, Known: func() []lessons.Lesson {
		calls++
		return []lessons.Lesson{pushLesson, jestLesson}
	}})
	if calls != 1 {
		t.Errorf("Known asked %d times, want once", calls)
	}
	all := candidates(t, state)
	dups := map[string]*Candidate{}
	for i, c := range all {
		if c.Status == StatusNew && strings.Contains(c.Trigger, "npm test") {
			t.Errorf("a candidate repeating an active lesson waits for review: %s %q", c.Kind, c.Summary)
		}
		if c.Status == StatusDuplicate {
			dups[c.LessonID] = &all[i]
		}
	}
	if d := dups[jestLesson.ID]; d == nil || d.Occurrences != 8 || len(d.Sessions) != 8 {
		t.Errorf("jest record = %+v, want 8 occurrences in 8 sessions", d)
	}
	// the rejected force push: the user's reason (open a pull request)
	// says more than the lesson, so review shows it
	if len(dups) != 1 || find(all, KindRejection, "git push --force") == nil {
		t.Errorf("the rejected force push was folded into the force-push lesson (%d records)", len(dups))
	}
	if find(all, KindRetry, "git push") == nil {
		t.Error("the upstream retry of git push, which the force-push lesson does not catch, was folded into it")
	}
	listed, err := OpenStore(state).List(ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range listed {
		if c.Status == StatusDuplicate {
			t.Errorf("review lists the duplicate record %s", c.ID)
		}
	}
}

func copyLabelled(t *testing.T, dir string) {
	t.Helper()
	if err := os.CopyFS(dir, os.DirFS(labelledDir)); err != nil {
		t.Fatal(err)
	}
}
