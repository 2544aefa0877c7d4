package replay

import (
	"fmt"
	"testing"
	"time"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
)

// TestLearnHoldsRemindersPastTheHooksMost: a project whose sessions each
// learned a reminder of their own holds more than a manifest carries.
// The hook keeps the most important, the latest seen among equals; a
// replay says what the hook would: when the oldest one's failure comes
// back it is not said, and the newest one's is.
func TestLearnHoldsRemindersPastTheHooksMost(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	n := cmdutil.MaxReminders + 2
	fail := func(l *claudeLog, i int) {
		l.bash(fmt.Sprintf("make deploy%d", i), fmt.Sprintf("Exit code 2\nerror: STAGE%d is not set", i), true)
	}
	for i := range n {
		l := newClaudeLog(fmt.Sprintf("s%05d", i), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		fail(l, i)
		l.bash(fmt.Sprintf("STAGE%d=staging make deploy%d", i, i), "deployed", false)
		l.write(t, dir)
	}
	l := newClaudeLog("last", "/home/dev/shop", start.Add(time.Duration(n)*time.Hour))
	fail(l, 0)
	fail(l, n-1)
	l.write(t, dir)
	rep, _ := learnAll(t, dir)
	if rep.Repeated != 2 || rep.Learn.Shortened != 1 {
		t.Errorf("%d repeated, %d shortened; want 2, 1: the oldest of %d reminders is past the %d the hook carries",
			rep.Repeated, rep.Learn.Shortened, n, cmdutil.MaxReminders)
	}
}
