package scanner

import (
	"strings"
	"testing"
)

// TestKnownFailureNotOfTheCallsOwnValue: a failure before any change, in
// two sessions, whose error names what the call was given (a field it
// asked for, a folder it searched) is the agent asking the same wrong
// thing twice, not a failure that comes with the checkout: no known
// failure ("fails before any change … do not try to fix it"). One whose
// error names nothing the call passed still is one.
func TestKnownFailureNotOfTheCallsOwnValue(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("gh pr view 5 --json number,reviewThreads", 1, "Unknown JSON field: \"reviewThreads\"\nAvailable fields:\n  additions\n  author\n  number"),
			run("rg -n 'Evaluator' src tests", 2, "rg: tests: No such file or directory (os error 2)"),
			run("pytest tests/unit", 1, "ImportError while loading conftest '/p/tests/conftest.py'.\nModuleNotFoundError: No module named 'hypothesis'"),
			run("git log -1", 0, "abc"),
		})
	}
	var known []string
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindKnown {
			known = append(known, c.Summary)
		}
	}
	got := strings.Join(known, "\n")
	if strings.Contains(got, "reviewThreads") || strings.Contains(got, "rg: tests") {
		t.Errorf("known failures of the call's own value:\n%s", got)
	}
	if !strings.Contains(got, "`pytest` fails before any change") {
		t.Errorf("no known failure for the missing module:\n%s", got)
	}
}
