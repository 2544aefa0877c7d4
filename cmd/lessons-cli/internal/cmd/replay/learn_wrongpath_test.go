package replay

import (
	"fmt"
	"testing"
	"time"
)

// TestLearnWrongPath: a script run where it is not, then from where it
// is, in one session; in the next session the agent runs it at the wrong
// path again, and a Read of a file that was missing in two sessions
// comes back in a third. The lessons replay --learn learned come before
// those calls (prevented, not merely shortened), and before no call that
// went fine.
func TestLearnWrongPath(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	roadmap := map[string]any{"file_path": "/home/dev/shop/docs/ROADMAP.md"}
	for i := range 4 {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		if i < 2 {
			l.bash("scripts/publish-preview.sh --env dev", "bash: scripts/publish-preview.sh: No such file or directory", true)
		}
		if i == 0 {
			l.bash("tools/release/scripts/publish-preview.sh --env dev", "published", false)
		}
		if i > 0 {
			l.tool("Read", roadmap, "File does not exist. Note: your current working directory is /home/dev/shop.", true)
		}
		l.bash("go test ./...", "ok", false)
		l.bash("tools/release/scripts/publish-preview.sh --env prod", "published", false)
		l.write(t, dir)
	}
	rep, _ := learnAll(t, dir)
	if rep.Repeated != 3 || rep.Learn.Prevented != 2 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d repeated, %d prevented, %d learned fires before fine calls; want 3, 2, 0 (the second session of the missing file is not yet learned)",
			rep.Repeated, rep.Learn.Prevented, rep.Learn.LearnedFiresBeforeFine)
	}
}
