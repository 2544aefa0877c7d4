package main

import (
	"encoding/json"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

// TestSkillShellCommand drives the built hook with Claude Code 2.1.332's
// PreSkillShellCommand payloads: a skill's shell line gets the block or
// ask a Bash PreToolUse with the same command gets, under the event's own
// name, and nothing else: the event takes no text, so a line whose
// lessons would only be injected gets {} and claims none of them.
func TestSkillShellCommand(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	payload := func(command string) []byte {
		p, _ := json.Marshal(map[string]any{
			"session_id": "skill-1", "cwd": e.project, "hook_event_name": "PreSkillShellCommand",
			"tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "skill-shell-1",
			"command_name": "ship", "command_source": "projectSettings", "invoked_by": "user",
		})
		return p
	}
	parse := func(out []byte) (a struct {
		HookSpecificOutput map[string]string `json:"hookSpecificOutput"`
	}) {
		if err := json.Unmarshal(out, &a); err != nil {
			t.Fatalf("answer %s: %v", out, err)
		}
		return a
	}
	for _, c := range []struct{ command, decision, reason string }{
		{"git push --force origin main", "deny", "--force-with-lease"},
		{`rm -rf "$BUILD_DIR"/*`, "ask", "${VAR:?}"},
	} {
		out := e.runHook(t, "claude", payload(c.command))
		got := parse(out).HookSpecificOutput
		if got["hookEventName"] != "PreSkillShellCommand" || got["permissionDecision"] != c.decision ||
			!strings.Contains(got["permissionDecisionReason"], c.reason) || got["additionalContext"] != "" || len(got) != 3 {
			t.Errorf("PreSkillShellCommand %q = %s, want %s with the lesson's reason and nothing else", c.command, out, c.decision)
		}
	}
	if out := strings.TrimSpace(string(e.runHook(t, "claude", payload("pytest -x tests/")))); out != "{}" {
		t.Errorf("a line whose lesson would be injected = %s, want {}", out)
	}
	// Not claimed: the same command in a Bash call still brings the lesson.
	pre, _ := json.Marshal(map[string]any{"session_id": "skill-1", "cwd": e.project, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "pytest -x tests/"}})
	if out := string(e.runHook(t, "claude", pre)); !strings.Contains(out, "pytest-hangs-on-tty") {
		t.Errorf("the Bash call after the skill line = %s, want the pytest lesson", out)
	}
	// The payload's shape alone says Claude Code.
	if out := string(e.runHookArgs(t, nil, string(payload("git push --force origin main")))); !strings.Contains(out, `"PreSkillShellCommand"`) {
		t.Errorf("without --platform = %s", out)
	}
}
