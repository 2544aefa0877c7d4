package scanner

import "testing"

// TestRetryDroppingASubstitutionIsNoFix: ps given the pids a command
// substitution found fails on its option (there were none, so -p had no
// argument); a ps without the substitution works. What failed was the
// value the shell computed, which the log does not show, not the option:
// no retry lesson.
func TestRetryDroppingASubstitutionIsNoFix(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/ann/app", id, []step{
			run(`ps -o pid,command -p $(pgrep -f "worker --queue" | tr '\n' ',')`, 1,
				"ps: option requires an argument -- p\nusage: ps [-AaCcEefhjlMmrSTvwXx] [-O fmt | -o fmt] [-G gid[,gid...]]"),
			run(`ps -ef | rg worker`, 0, "  501 100 1 0 10:17AM ?? 0:00.04 worker --queue mail"),
		})
	}
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindRetry {
			t.Errorf("retry lesson %q: the substitution's value failed, not the option", c.Summary)
		}
	}
}
