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

// TestErrorSummaryKeepsTheError: a refusal's head names what refused and
// what failed; the error after it is cut to the room left, never to the
// program's name alone ("… (`rm`): rm").
func TestErrorSummaryKeepsTheError(t *testing.T) {
	fail := "rm: cannot remove 'build/generated sources/android app/intermediates': Operation not permitted"
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("rm -rf build", 1, fail),
		call("Bash", map[string]any{"command": "rm -rf build", "dangerouslyDisableSandbox": true}, false, ""),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	if s := cs[0].Summary; !strings.Contains(s, "rm: cannot remove") || len(s) > maxSummary {
		t.Errorf("summary %q: want the error's words after the head, within %d bytes", s, maxSummary)
	}
}
