package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// browserSession writes a Claude Code session in project in which a
// browser MCP tool's click fails with no page open, the navigate tool of
// the same server opens one, and the same click works.
func browserSession(t *testing.T, s *sandbox, dir, project, id string) {
	t.Helper()
	l := &claudeLog{id: id, cwd: project, hour: 1}
	l.line("user", "check the login button")
	l.call("t1", "mcp__playwright__browser_click", map[string]any{"element": "Login", "ref": "e12"},
		"Error: No open pages available. Navigate to a page first.", true)
	l.call("t2", "mcp__playwright__browser_navigate", map[string]any{"url": "http://localhost:3000"}, "Page URL: http://localhost:3000", false)
	l.call("t3", "mcp__playwright__browser_click", map[string]any{"element": "Login", "ref": "e12"}, "Clicked Login", false)
	l.save(t, s, dir)
}

// TestE2EToolStepReminder: an MCP tool that failed for want of another
// tool's step, in a session a scan read, is answered by the hook binary,
// without anyone promoting the lesson, right after the same failure in
// that project: call the navigate tool first. Never before the click.
func TestE2EToolStepReminder(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs", "-project")
	browserSession(t, s, logs, s.project, "s1")
	s.ok(s.project, "init", "--project")
	s.ok(s.root, "scan", "--path", filepath.Dir(logs))
	hookBin := bin.front
	if hookBin == "" {
		hookBin = bin.cli
	}
	call := func(session, event, extra string) result {
		return s.exec(hookBin, s.project, `{"session_id":"`+session+`","cwd":"`+s.project+`","hook_event_name":"`+event+
			`","tool_name":"mcp__playwright__browser_click","tool_input":{"element":"Submit","ref":"e40"}`+extra+`}`, "hook")
	}
	if r := call("h1", "PreToolUse", ""); r.code != 0 || strings.Contains(r.stdout, "browser_navigate") {
		t.Errorf("before the click: exit %d, %s; want nothing", r.code, r.stdout)
	}
	r := call("h1", "PostToolUseFailure", `,"error":"Error: No open pages available. Navigate to a page first."`)
	if r.code != 0 || !strings.Contains(r.stdout, "call `mcp__playwright__browser_navigate`") {
		t.Errorf("after the same failure: exit %d, want the navigate tool named as the step first:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := call("h2", "PostToolUseFailure", `,"error":"Error: Element not found: ref e40"`); r.code != 0 || strings.Contains(r.stdout, "browser_navigate") {
		t.Errorf("after another error: exit %d, %s; want nothing of the step", r.code, r.stdout)
	}
}
