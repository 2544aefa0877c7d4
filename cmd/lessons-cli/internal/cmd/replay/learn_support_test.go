package replay

import (
	"fmt"
	"testing"
	"time"
)

// TestLearnSupportFoundFirst: a test fails after the agent's edit in
// the first session, and nothing gets past it; in the second it fails
// before any change. A scan of the two sessions counts both for the
// known failure, whichever came first, and so does the replay that
// learns as it goes: in the third session the lesson comes with the same
// failure, and the repeat is cut short. The second session's repeat is
// cut short too, by the lesson on the error of the first: its output
// names no file the first session edited, so the edit after it was not
// what got past it (scanner's taskEdits), and nothing did.
func TestLearnSupportFoundFirst(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	fail := "Exit code 1\n--- FAIL: TestClock (0.00s)\n    clock_test.go:9: want 09:00 in Europe/Paris, got 08:00\nFAIL\tshop/clock\t0.01s"
	for i := range 3 {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		if i == 0 {
			l.tool("Write", map[string]any{"file_path": "/home/dev/shop/cart/tax.go", "content": "package cart"}, "File created", false)
		}
		l.bash("go test ./...", fail, true)
		l.tool("Write", map[string]any{"file_path": fmt.Sprintf("/home/dev/shop/cart/f%d.go", i), "content": "package cart"}, "File created", false)
		l.bash("go build ./...", "", false)
		l.write(t, dir)
	}
	rep, _ := learnAll(t, dir)
	if rep.Repeated != 2 || rep.Learn.Shortened != 2 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d repeated, %d shortened, %d learned fires before fine calls; want 2, 2, 0",
			rep.Repeated, rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine)
	}
}
