package scanner

import (
	"strings"
	"testing"
)

// TestRetryInAnotherWorkdirOnWindows: Codex on Windows runs `git status`
// in a workspace whose repositories are its folders; it is no repository,
// and the same command in one of them works. The lesson names that
// folder, read with forward slashes.
func TestRetryInAnotherWorkdirOnWindows(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeCodex(t, dir, `D:\work`, "s1", []cxStep{
		execCmd(map[string]any{"cmd": "git status --short --branch", "workdir": `D:\work`}, 128, "fatal: not a git repository (or any of the parent directories): .git"),
		execCmd(map[string]any{"cmd": "git status --short --branch", "workdir": `D:\work\app`}, 0, "## main"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	var got []Candidate
	for _, c := range candidates(t, state) {
		if strings.Contains(c.Summary, "run it in") {
			got = append(got, c)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0].Summary, "run it in the subfolder `app`") {
		t.Fatalf("workdir lessons %+v, want one naming `app`", got)
	}
}

// TestRetryInAnotherWorkdir: Codex runs a project script with the
// repository's parent as its workdir, the script is not found, and the
// same command run with the project's folder as workdir works. The
// lesson is where to run it, said after the same error: the command is
// the same in both calls, so no trigger on its words could tell them
// apart. It names the folder from where the command failed (the
// subfolder `app`): the session's own folder may be either. The same
// command failing for a reason no folder explains (a
// test that fails in both) teaches no folder.
func TestRetryInAnotherWorkdir(t *testing.T) {
	notFound := "zsh:1: no such file or directory: .specify/scripts/bash/check.sh"
	for _, tc := range []struct {
		name      string
		failedOut string
		want      bool
	}{
		{"script not found in the parent", notFound, true},
		{"a test failing anyway", "FAILED tests/test_api.py::test_login - AssertionError: 401 != 200", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			writeCodex(t, dir, "/u/lab/app", "s1", []cxStep{
				execCmd(map[string]any{"cmd": ".specify/scripts/bash/check.sh --json", "workdir": "/u/lab"}, 1, tc.failedOut),
				execCmd(map[string]any{"cmd": ".specify/scripts/bash/check.sh --json", "workdir": "/u/lab/app"}, 0, "{}"),
			})
			scan(t, state, Options{Paths: []string{dir}})
			var got []Candidate
			for _, c := range candidates(t, state) {
				if strings.Contains(c.Summary, "run it in") {
					got = append(got, c)
				}
			}
			if !tc.want {
				if len(got) != 0 {
					t.Fatalf("a workdir lesson %q for a failure no folder explains", got[0].Summary)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d workdir lessons, want 1", len(got))
			}
			c := got[0]
			if !strings.Contains(c.Summary, "run it in the subfolder `app`") || !strings.Contains(c.Solution, "`/u/lab`") {
				t.Errorf("summary %q / solution %q: want where it worked and where it failed", c.Summary, c.Solution)
			}
			l := ToLesson(c)
			if len(l.Triggers.Errors) == 0 || !commandFires(l.Triggers, ".specify/scripts/bash/check.sh --json") {
				t.Errorf("triggers %+v: want the command, narrowed to its error", l.Triggers)
			}
		})
	}
}
