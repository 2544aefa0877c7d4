package scanner

import (
	"strings"
	"testing"
)

// TestRetryBlamesOnlyTheNamedFlag: a usage error names one flag
// ("unknown flag: --no-pager"); a retry that dropped it and another
// flag besides blames a flag that worked: no retry lesson from it. The
// retry that dropped only the named flag is one, and it says that flag
// alone.
func TestRetryBlamesOnlyTheNamedFlag(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		run("ckpt status --json --no-pager", 1, "Usage:\nError: Invalid usage: unknown flag: --no-pager"),
		run("ckpt status", 0, "clean"),
	})
	var retries []Candidate
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindRetry {
			retries = append(retries, c)
		}
	}
	if len(retries) != 0 {
		t.Errorf("retry lessons %q: the error named --no-pager only; --json worked", summaries(retries))
	}

	writeClaude(t, dir, "/home/ann/app", "s2", []step{
		run("ckpt status --no-pager", 1, "Usage:\nError: Invalid usage: unknown flag: --no-pager"),
		run("ckpt status", 0, "clean"),
	})
	retries = nil
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindRetry {
			retries = append(retries, c)
		}
	}
	if len(retries) != 1 || !strings.Contains(retries[0].Summary, "drop --no-pager") || strings.Contains(retries[0].Summary, "--json") {
		t.Errorf("retry lessons %q: want one, dropping --no-pager alone", summaries(retries))
	}
}

// candidatesOf scans dir into a fresh state and returns every candidate.
func candidatesOf(t *testing.T, dir string) []Candidate {
	t.Helper()
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	return candidates(t, state)
}
