package scanner

import "testing"

// TestTimedOut: each agent's words for a call that ran out of time mark
// its result timed out (a timeout is no lesson on the error's words).
func TestTimedOut(t *testing.T) {
	for out, want := range map[string]bool{
		"Command timed out after 2m 0.0s": true, // Claude Code
		"shell tool terminated command after exceeding timeout 120000 ms. If this command is expected to take longer, retry with a larger timeout value in milliseconds.": true, // opencode 1.18
		"context deadline exceeded":                     true,
		"--- FAIL: TestCart (0.01s)\n    got 3, want 4": false,
	} {
		if got := timedOut(out); got != want {
			t.Errorf("timedOut(%.40q) = %v, want %v", out, got, want)
		}
	}
}
