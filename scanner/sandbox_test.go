package scanner

import (
	"strings"
	"testing"
)

// TestSandboxedErrorAnyCommand: in a Codex session `cargo build` cannot
// write the registry outside the workspace ("Permission denied", a
// wording no error class names a refusal), and the same command with
// sandbox_permissions require_escalated works. The setting names the
// sandbox, so the lesson is the sandbox's: its trigger is the error for
// any shell command (it fires after `cargo test` printing it, not after
// a script without its execute bit), and its summary says the sandbox
// refused. The same with a setting that is not the sandbox's (a longer
// wait) stays with its command.
func TestSandboxedErrorAnyCommand(t *testing.T) {
	fail := "error: failed to open: /home/dev/.cargo/registry/cache/index.crates.io/.package-cache: Permission denied (os error 13)"
	build := map[string]any{"cmd": "cargo build", "workdir": "/repo/shop"}
	escalated := map[string]any{"cmd": "cargo build", "workdir": "/repo/shop", "sandbox_permissions": "require_escalated",
		"justification": "cargo needs its registry cache"}
	dir := t.TempDir()
	writeCodex(t, dir, "/repo/shop", "s1", []cxStep{execCmd(build, 101, fail), execCmd(escalated, 0, "Finished dev profile")})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if len(c.Triggers.Commands) != 0 || !errorFires(t, c, strings.Replace(fail, "build", "test", 1)) ||
		errorFires(t, c, "bash: ./deploy.sh: Permission denied") {
		t.Errorf("triggers %+v: want the error, for any shell command, and not another permission error", c.Triggers)
	}
	if !strings.HasPrefix(c.Summary, "The agent's sandbox refused") || !strings.Contains(c.Solution, "require_escalated") {
		t.Errorf("summary %q, solution %q: want the sandbox named, and the setting that got past it", c.Summary, c.Solution)
	}

	dir = t.TempDir()
	longer := map[string]any{"cmd": "cargo build", "workdir": "/repo/shop", "yield_time_ms": 60000}
	writeCodex(t, dir, "/repo/shop", "s1", []cxStep{execCmd(build, 101, fail), execCmd(longer, 0, "Finished dev profile")})
	for _, c := range errorCandidates(t, dir) {
		if len(c.Triggers.Commands) == 0 || strings.Contains(c.Summary, "sandbox") {
			t.Errorf("%q %+v: a setting that is not the sandbox's keeps the lesson with its command", c.Summary, c.Triggers)
		}
	}
}
