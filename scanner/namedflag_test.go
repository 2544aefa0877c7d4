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

// TestRetryAnswersAPrompt: a command that wanted a terminal to ask
// before it acted failed in the agent's shell; the same command with the
// option that answers the question worked, in two sessions. A lesson on
// the command: the option it needs here. Before, an error that names no
// word of the call and no option was no reason for the retry.
func TestRetryAnswersAPrompt(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	noTTY := "chezmoi: /home/ann/.zshrc: could not open a new TTY: open /dev/tty: device not configured"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("chezmoi apply", 1, noTTY),
			run("chezmoi apply --force", 0, ""),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	rs := ofKind(candidates(t, state), KindRetry)
	if len(rs) != 1 || !strings.Contains(rs[0].Summary, "add --force") || len(rs[0].Sessions) != 2 {
		t.Fatalf("retries %v, want one that adds --force, seen in both sessions", summaries(rs))
	}
}
