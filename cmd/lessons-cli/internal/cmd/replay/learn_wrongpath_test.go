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

// TestLearnWrongFileThatWorksLater: a file read where it is not, then
// where it is, in two sessions; in the four after, it is back where it
// was not, and reads of it there work. The lesson, proposed after the
// second session, comes before the reads of the next two sessions (fine
// calls); with its path worked in as many sessions as it failed in, it
// is held, and comes before no read of the last two.
func TestLearnWrongFileThatWorksLater(t *testing.T) {
	const wrong, right = "/home/dev/shop/src/models/Cart.swift", "/home/dev/shop/src/Cart.swift"
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 6 {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		if i < 2 {
			l.tool("Read", map[string]any{"file_path": wrong}, "File does not exist.", true)
			l.tool("Read", map[string]any{"file_path": right}, "struct Cart {}", false)
		} else {
			l.tool("Read", map[string]any{"file_path": wrong}, "struct Cart {}", false)
		}
		l.write(t, dir)
	}
	rep, _ := learnAll(t, dir)
	if rep.Learn.LearnedFiresBeforeFine != 2 {
		t.Errorf("%d learned fires before fine calls, want 2 (the reads of the two sessions after it was proposed)", rep.Learn.LearnedFiresBeforeFine)
	}
}
