package scanner

import (
	"strings"
	"testing"
)

// TestErrorSummaryOfALongPath: the sandbox refused a write under a long
// path; the lesson's summary keeps what went wrong after the path
// (Permission denied) and the path's last names, not the path's start.
func TestErrorSummaryOfALongPath(t *testing.T) {
	fail := "fatal: Unable to create '/Users/dana/Documents/Projects/client-work/acme-portal/.git/index.lock': Permission denied"
	dir := t.TempDir()
	writeCodex(t, dir, "/Users/dana/Documents/Projects/client-work/acme-portal", "c1", []cxStep{
		execCmd(map[string]any{"cmd": "git add src/app.ts"}, 128, fail),
		execCmd(map[string]any{"cmd": "git add src/app.ts", "sandbox_permissions": "require_escalated"}, 0, ""),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	s := cs[0].Summary
	if len(s) > maxSummary || !strings.Contains(s, "…/.git/index.lock") || !strings.Contains(s, "Permission denied") {
		t.Errorf("summary %q: want the path's last names and the error after it", s)
	}
}
