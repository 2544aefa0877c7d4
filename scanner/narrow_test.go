package scanner

import (
	"testing"
	"time"
)

// A #lesson block's trigger must not fire on the fix its solution names:
// the jest lesson fired on the already-correct CI=true npm test.
func TestTagTriggerSparesItsFix(t *testing.T) {
	for _, tt := range []struct{ trigger, solution, fix string }{
		{"npm test", "Run `CI=true npm test -- --watchAll=false` so jest does not start in watch mode.", "CI=true npm test -- --watchAll=false"},
		{"pytest -s tests/", "drop -s, or run pytest -s tests/ < /dev/null.", "pytest -s tests/ < /dev/null"},
		{"git push --force origin main", "use git push --force-with-lease origin main instead", "git push --force-with-lease origin main"},
	} {
		f := finding{Kind: KindTag, Tool: "Bash", Trigger: tt.trigger, Problem: "it went wrong in a way worth a lesson", Solution: tt.solution, Line: 1}
		c, _ := build(f, Session{ID: "s"}, "f.jsonl", "claude", time.Now())
		if c.Fixed != tt.fix {
			t.Errorf("%q: fix = %q, want %q", tt.trigger, c.Fixed, tt.fix)
		}
		if !commandFires(c.Triggers, tt.trigger) {
			t.Errorf("%q: trigger %+v does not fire on the mistake", tt.trigger, c.Triggers)
		}
		if commandFires(c.Triggers, c.Fixed) && !c.NeedsReview {
			t.Errorf("%q: trigger %+v fires on its own fix %q and is not marked for review", tt.trigger, c.Triggers, c.Fixed)
		}
		if !commandFires(c.Triggers, c.Fixed) && len(c.Examples.NoMatch) == 0 {
			t.Errorf("%q: the fix is not a noMatch example", tt.trigger)
		}
	}
}
