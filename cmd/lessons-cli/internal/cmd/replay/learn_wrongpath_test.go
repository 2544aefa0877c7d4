package replay

import (
	"fmt"
	"testing"
	"time"
)

// TestLearnWrongPath: a script run where it is not, then from where it
// is, in each of two sessions; in the third the agent runs it at the
// wrong path again. Learned from the first session, the lesson is a
// reminder: said after the second session's failure (shortened). Found
// at the same place again, it is proposed, and comes before the third
// session's call (prevented, not merely shortened), and before no call
// that went fine: not before the runs of the script where it is.
func TestLearnWrongPath(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 3 {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		l.bash("scripts/publish-preview.sh --env dev", "bash: scripts/publish-preview.sh: No such file or directory", true)
		if i < 2 {
			l.bash("tools/release/scripts/publish-preview.sh --env dev", "published", false)
		}
		l.bash("go test ./...", "ok", false)
		l.bash("tools/release/scripts/publish-preview.sh --env prod", "published", false)
		l.write(t, dir)
	}
	rep, _ := learnAll(t, dir)
	if rep.Repeated != 2 || rep.Learn.Shortened != 1 || rep.Learn.Prevented != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d repeated, %d shortened, %d prevented, %d learned fires before fine calls; want 2, 1, 1, 0",
			rep.Repeated, rep.Learn.Shortened, rep.Learn.Prevented, rep.Learn.LearnedFiresBeforeFine)
	}
}
