package scanner

import "testing"

// TestWaitingIsNoKnownFailure: in three sessions the agent asks for a CI
// run's logs before the run is done, and the command exits 1 saying so.
// That is waiting, not a failure that comes with the checkout: no known
// failure. A run whose logs are gone is one.
func TestWaitingIsNoKnownFailure(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want bool
	}{
		{"run 2883798245 is still in progress; logs will be available when it is complete", false},
		{"failed to get run log: log not found: HTTP 404 (https://api.github.com/repos/acme/shop/actions/runs/1/logs)", true},
	} {
		dir, state := t.TempDir(), t.TempDir()
		for _, id := range []string{"s1", "s2", "s3"} {
			writeClaude(t, dir, "/p", id, []step{
				run("gh run view --log-failed", 1, tc.out),
				run("ls", 0, "go.mod"),
			})
		}
		scan(t, state, Options{Paths: []string{dir}})
		var got []string
		for _, c := range candidates(t, state) {
			if c.Kind == KindKnown {
				got = append(got, c.Summary)
			}
		}
		if (len(got) > 0) != tc.want {
			t.Errorf("output %q: lessons %q, want some: %v", tc.out, got, tc.want)
		}
	}
}
