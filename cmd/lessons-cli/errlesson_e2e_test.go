package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EAddErrorLesson follows a lesson on an error from `lessons add
// --error` to the hook: add checks the regex on the example's error
// text and writes both, `lessons test` runs the examples, and the hook
// brings the lesson after the failure, not before the call.
func TestE2EAddErrorLesson(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	base := []string{"add",
		"--summary", "cargo cannot find the linker cc: install the C toolchain before building",
		"--problem", "Rust links through the system C compiler, which this machine does not have installed.",
		"--solution", "Install build-essential (or the distribution's gcc package), then run cargo build again.",
		"--command", `\bcargo\s+(build|test|run)\b`,
		"--error", "linker `cc` not found",
		"--no-match", `{"command":"cargo build","error":"error[E0425]: cannot find value x"}`,
	}
	// An example error the regex does not find: nothing is written.
	r := s.run(s.project, "", append(base, "--match", "cargo build", "--example-error", "error: linker cc missing")...)
	if r.code == 0 || !strings.Contains(r.stderr, `"cargo build" failing with "error: linker cc missing": does not match`) {
		t.Fatalf("add with an example error the regex misses: exit %d\n%s", r.code, r.stderr)
	}
	slug := strings.TrimSpace(s.ok(s.project, append(base, "--match", "cargo build", "--example-error", "error: linker `cc` not found")...).stdout)
	data, err := os.ReadFile(filepath.Join(s.project, ".lessons", slug+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"errors:", "linker `cc` not found", "error: 'error: linker `cc` not found'"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the lesson file lacks %q:\n%s", want, data)
		}
	}
	if r := s.ok(s.project, "test", slug); !strings.HasPrefix(r.stdout, "ok: 1 lessons, 2 examples") {
		t.Errorf("lessons test: %s", r.stdout)
	}

	hookBin := bin.front
	if hookBin == "" {
		hookBin = bin.cli
	}
	pre := `{"session_id":"s1","cwd":"` + s.project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo build"}}`
	if r := s.exec(hookBin, s.project, pre, "hook"); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("hook before cargo build: exit %d, %s", r.code, r.stdout)
	}
	fail := `{"session_id":"s1","cwd":"` + s.project + `","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"cargo build"},` +
		`"error":"Exit code 101\n   Compiling app v0.1.0\nerror: linker ` + "`cc`" + ` not found"}`
	if r := s.exec(hookBin, s.project, fail, "hook"); r.code != 0 || !strings.Contains(r.stdout, slug) || !strings.Contains(r.stdout, "install the C toolchain") {
		t.Errorf("hook after the failure: exit %d, want %s:\n%s%s", r.code, slug, r.stdout, r.stderr)
	}
}
