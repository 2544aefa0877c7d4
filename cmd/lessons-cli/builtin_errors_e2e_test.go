package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestE2EBuiltinErrorLessons: with nothing but the built-in lessons, the
// hook answers Claude Code's PostToolUseFailure for the failures that
// recur across projects with the built-in on that error, and stays quiet
// on a failure none of them names.
func TestE2EBuiltinErrorLessons(t *testing.T) {
	if bin.front == "" {
		t.Skip("cmd/lessons does not build")
	}
	s := newSandbox(t)
	for i, tt := range []struct {
		command, output, want string
	}{
		{"cd internal/store && go test ./...", "Exit code 1\n(eval):cd:1: no such file or directory: internal/store", "no-such-file-after-a-cd-the-agent-2kvc"},
		{"ls logs/*.err", "Exit code 1\n(eval):1: no matches found: logs/*.err", "zsh-no-matches-found-an-unquoted-or-was-yg6q"},
		{`python3 -c "import sys; print(len(sys.argv) != 2)"`, "Exit code 1\n  File \"<string>\", line 1\n    import sys; print(len(sys.argv) \\!= 2)\nSyntaxError: unexpected character after line continuation character", "jq-or-python-saw-a-it-never-had-i293"},
		{"pytest -q", "Exit code 127\n/bin/bash: line 1: pytest: command not found", "command-not-found-use-the-project-s-own-tpag"},
		{"go test ./...", "Exit code 1\n--- FAIL: TestOpen (0.00s)\nFAIL", ""},
	} {
		p, _ := json.Marshal(map[string]any{
			"session_id": "s" + string(rune('a'+i)), "cwd": s.project, "hook_event_name": "PostToolUseFailure",
			"tool_name": "Bash", "tool_input": map[string]string{"command": tt.command}, "error": tt.output,
		})
		r := s.exec(bin.front, s.project, string(p), "hook")
		if r.code != 0 {
			t.Fatalf("hook: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		switch {
		case tt.want != "" && !strings.Contains(r.stdout, tt.want):
			t.Errorf("after %q failed with %q: %s\nwant %s", tt.command, tt.output, r.stdout, tt.want)
		case tt.want == "" && strings.Contains(r.stdout, "## Lesson"):
			t.Errorf("after a test failure the hook injected %s, want nothing", r.stdout)
		}
	}
}
