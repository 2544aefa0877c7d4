package scanner

import "testing"

// TestKnownFailureNotFromAHeldBackCommand: in two sessions the agent's
// tool held npm test back before it ran (an approval it could not get:
// an error with no exit status), before any change. That says nothing of
// the checkout: no known failure. The same command failing with an exit
// status in two sessions is one.
func TestKnownFailureNotFromAHeldBackCommand(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/ann/bank", id, []step{
			call("Bash", map[string]any{"command": "npm test"}, true, "This command requires approval"),
			write("/home/ann/bank/src/ledger.ts", "export {}"),
			run("git status --short", 0, " M src/ledger.ts"),
		})
	}
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindKnown {
			t.Errorf("known failure %q from a command that never ran", c.Summary)
		}
	}

	dir = t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/ann/bank", id, []step{
			run("npm test", 1, "FAIL src/ledger.test.ts\n  ● ledger › rounds cents\n\n    Error: expected 10, received 9\n\nTests: 1 failed, 4 passed"),
			write("/home/ann/bank/src/ledger.ts", "export {}"),
			run("git status --short", 0, " M src/ledger.ts"),
		})
	}
	n := 0
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindKnown {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d known failures, want one: npm test failed with an exit status in two sessions", n)
	}
}
