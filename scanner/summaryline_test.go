package scanner

import (
	"strings"
	"testing"
)

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
