package scanner

import (
	"strings"
	"testing"
)

// TestRetryAddsAFlagWithItsValue: a script run without a flag it needs
// (a usage error naming --env), then with the flag and its value, is a
// retry lesson, for a command with no subcommand as for one with: the
// value the fix added is no subcommand the retry aimed elsewhere. Each
// real agent's suite run (realagents.TestScanReadsTheLog) writes this.
func TestRetryAddsAFlagWithItsValue(t *testing.T) {
	for _, tc := range []struct{ failed, fixed string }{
		{"./deploy.sh", "./deploy.sh --env dev"},
		{"./deploy.sh --verbose", "./deploy.sh --verbose --env dev"},
		{"deploy plan", "deploy plan --env dev"},
	} {
		dir := t.TempDir()
		writeClaude(t, dir, "/home/ann/app", "s1", []step{
			run(tc.failed, 2, "error: --env is required"),
			run(tc.fixed, 0, "deployed to dev"),
		})
		var retries []Candidate
		for _, c := range candidatesOf(t, dir) {
			if c.Kind == KindRetry {
				retries = append(retries, c)
			}
		}
		if len(retries) != 1 || retries[0].Fixed != tc.fixed || !strings.Contains(retries[0].Solution, "--env") {
			t.Errorf("%q then %q: retry lessons %q, want one whose fix adds --env", tc.failed, tc.fixed, summaries(retries))
		}
	}
}
