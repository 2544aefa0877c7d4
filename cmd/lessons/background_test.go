package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// The built-in lesson on dev servers is about a shell call that blocks
// the agent until it times out: the real hook binary tells it before a
// foreground `npm run dev`, and keeps quiet where the agent's own tool
// runs the command without waiting (Claude Code's run_in_background,
// Gemini CLI's is_background, Codex's exec_command session).
func TestDevServerLessonQuietInTheBackground(t *testing.T) {
	const slug = "dev-servers-and-watchers-never-exit-skod"
	data, err := os.ReadFile(filepath.Join("..", "..", "lessons.d", slug+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := repo.ParseLesson(slug+".yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), []scope.Resolved{{Scope: lessons.ScopeBuiltin, Lesson: *l}})
	for _, tt := range []struct {
		name, platform string
		payload        map[string]any
		fires          bool
	}{
		{"claude foreground", "claude", map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": "npm run dev", "timeout": 120000}}, true},
		{"claude background", "claude", map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": "npm run dev", "run_in_background": true}}, false},
		// Gemini CLI reads a call's lessons with its result, at AfterTool
		{"gemini foreground", "gemini", map[string]any{"hook_event_name": "AfterTool", "timestamp": "2026-11-25T10:00:00Z",
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "npm run dev"},
			"tool_response": map[string]any{"llmContent": "Command was cancelled by user before it could complete."}}, true},
		{"gemini background", "gemini", map[string]any{"hook_event_name": "AfterTool", "timestamp": "2026-11-25T10:00:00Z",
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "npm run dev", "is_background": true},
			"tool_response": map[string]any{"llmContent": "Command moved to the background (PID: 4242)."}}, false},
		{"codex exec_command session", "codex", map[string]any{"hook_event_name": "PreToolUse", "turn_id": "turn-1", "model": "gpt-5-codex",
			"tool_name": "Bash", "tool_input": map[string]any{"command": "npm run dev"}}, false},
		{"codex shell", "codex", map[string]any{"hook_event_name": "PreToolUse", "turn_id": "turn-1", "model": "gpt-5-codex",
			"tool_name": "shell", "tool_input": map[string]any{"command": []string{"bash", "-lc", "npm run dev"}, "timeout_ms": 120000}}, true},
		{"opencode bash", "opencode", map[string]any{"hook_event_name": "PreToolUse", "tool_name": "bash",
			"tool_input": map[string]any{"command": "npm run dev"}}, true},
	} {
		// each case a session of its own: the lesson comes once a session
		tt.payload["session_id"], tt.payload["cwd"] = tt.name, e.project
		payload, _ := json.Marshal(tt.payload)
		out := e.runHook(t, tt.platform, payload)
		checkShapeFor(t, tt.platform, out)
		if got := bytes.Contains(out, []byte(slug)); got != tt.fires {
			t.Errorf("%s: lesson fired = %v, want %v; the hook answered %s", tt.name, got, tt.fires, out)
		}
	}
}
