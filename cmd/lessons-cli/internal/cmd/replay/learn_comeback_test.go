package replay

import (
	"fmt"
	"testing"
	"time"
)

// TestLearnSaidAfterItsErrorUntilItCameBack: an option the command does
// not take, dropped in three sessions. The lesson learned in the first is
// said after the error in the second (shortened, not prevented: seen once,
// it is a reminder); the second made it a lesson before the call, which
// prevents the third.
func TestLearnSaidAfterItsErrorUntilItCameBack(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 3 {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		l.bash(fmt.Sprintf("gh pr diff %d --stat", 10+i), "unknown flag: --stat\n\nUsage:  gh pr diff [<number> | <url> | <branch>] [flags]", true)
		l.bash(fmt.Sprintf("gh pr diff %d", 10+i), "diff --git a/x b/x", false)
		l.write(t, dir)
	}
	rep, _ := learnAll(t, dir)
	if rep.Repeated != 2 || rep.Learn.Shortened != 1 || rep.Learn.Prevented != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d repeated, %d shortened, %d prevented, %d learned fires before fine calls; want 2, 1, 1, 0",
			rep.Repeated, rep.Learn.Shortened, rep.Learn.Prevented, rep.Learn.LearnedFiresBeforeFine)
	}
}
