package scanner

import "testing"

// TestWiderTestRunIsNoFix: a filtered test run fails on a timeout (a
// tally of failed tests), then the whole suite, the same command with
// the filter dropped, passes, in two sessions: the wider run holds the
// tests that failed, so the failure came and went. Dropping the filter
// is no lesson.
func TestWiderTestRunIsNoFix(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/ann/ext", id, []step{
			run(`pnpm test -- --grep "Checkout UI|Cart UI"`, 1,
				"> ext@0.1.0 test /home/ann/ext\n> vscode-test -- --grep 'Checkout UI|Cart UI'\n\n  Checkout UI\n    ✔ shows the total\n    1) loads the probe\n\n  1 passing (2s)\n  1 failing\n\n  1) Checkout UI\n       loads the probe:\n     Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure \"done()\" is called. (/home/ann/ext/out/test/probe.test.js)\n ELIFECYCLE  Test failed."),
			say("That looks like a timeout in the probe; running the whole suite."),
			run("pnpm test", 0, "42 passing"),
		})
	}
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindRetry {
			t.Errorf("retry lesson %q: the wider run passed the tests that failed", c.Summary)
		}
	}
}
