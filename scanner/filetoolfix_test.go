package scanner

import (
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestFileToolValueTheErrorRejected: a Read whose error is about the
// offset it gave (past the end, below 1), then a Read with another
// offset, learns nothing the error did not say: no lesson at or above
// minConfidence, in two sessions either. A Read of a path the tool did
// not find, then of a file under it, is a guess corrected, not the
// relation "read a file inside the directory" that holds after any
// missing file.
func TestFileToolValueTheErrorRejected(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/ann/app", id, []step{
			call("Read", map[string]any{"file_path": "/home/ann/app/src/big.ts", "offset": 4500, "limit": 200}, true,
				"Offset 4500 is out of range for this file (3380 lines)"),
			call("Read", map[string]any{"file_path": "/home/ann/app/src/big.ts", "offset": 3200, "limit": 200}, false, "line 3200"),
			call("Read", map[string]any{"file_path": "/home/ann/app/src/small.ts", "offset": 0, "limit": 50}, true,
				"offset must be greater than or equal to 1"),
			call("Read", map[string]any{"file_path": "/home/ann/app/src/small.ts", "offset": 1, "limit": 50}, false, "line 1"),
		})
	}
	writeClaude(t, dir, "/home/ann/app", "s3", []step{
		call("Read", map[string]any{"file_path": "/home/ann/app/assets/theme"}, true, "File not found: /home/ann/app/assets/theme"),
		call("Read", map[string]any{"file_path": "/home/ann/app/assets/theme/dark.css"}, false, "body {}"),
	})
	min := lessons.DefaultConfig().MinConfidence
	for _, c := range errorCandidates(t, dir) {
		if c.Confidence >= min {
			t.Errorf("lesson %q (%s) at %.2f: the error already said it", c.Summary, c.Solution, c.Confidence)
		}
	}
}
