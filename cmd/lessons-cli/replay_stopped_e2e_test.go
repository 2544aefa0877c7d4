package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeJSONL writes records as a log file, one JSON object a line.
func writeJSONL(t *testing.T, path string, recs ...map[string]any) {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestE2EReplayStoppedProcesses replays, with the built-in lessons, a
// dev server an agent ran without waiting and stopped on purpose (Claude
// Code in the background, ended with its kill tool; Codex as a session,
// ended with Ctrl-C through write_stdin) and one run in the foreground
// that timed out: the stops are neither failures nor repeats, the report
// counts them as its trace does, and the dev-server lesson comes only
// before the foreground run.
func TestE2EReplayStoppedProcesses(t *testing.T) {
	const slug = "dev-servers-and-watchers-never-exit-skod"
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs")
	claude := func(id, at string, uses ...[3]any) {
		recs := []map[string]any{{"type": "user", "sessionId": id, "cwd": "/w/web", "timestamp": at, "uuid": id + "-0",
			"message": map[string]any{"role": "user", "content": "start the site and check it"}}}
		for k, u := range uses {
			tid := fmt.Sprintf("%s-t%d", id, k)
			recs = append(recs,
				map[string]any{"type": "assistant", "sessionId": id, "cwd": "/w/web", "timestamp": at, "uuid": tid + "a",
					"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": tid, "name": u[0], "input": u[1]}}}},
				map[string]any{"type": "user", "sessionId": id, "cwd": "/w/web", "timestamp": at, "uuid": tid + "r",
					"message": map[string]any{"role": "user", "content": []any{u[2]}}})
		}
		writeJSONL(t, filepath.Join(logs, "claude", id+".jsonl"), recs...)
	}
	result := func(id string, isError bool, out string) map[string]any {
		return map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": isError}
	}
	claude("c1", "2025-03-01T00:00:00Z",
		[3]any{"Bash", map[string]any{"command": "npm run dev", "run_in_background": true}, result("c1-t0", false, "Command running in background with ID: b7f3a1")},
		[3]any{"TaskStop", map[string]any{"task_id": "b7f3a1"}, result("c1-t1", false, `{"message":"Successfully stopped task: b7f3a1 (npm run dev)"}`)},
		[3]any{"KillShell", map[string]any{"shell_id": "b7f3a1"}, result("c1-t2", true, "Shell b7f3a1 is not running, so cannot be killed (status: killed)")},
	)
	claude("c2", "2025-03-01T01:00:00Z",
		[3]any{"Bash", map[string]any{"command": "npm run dev"}, result("c2-t0", true, "Command timed out after 2m 0.0s")},
		[3]any{"KillShell", map[string]any{"shell_id": "b7f3a1"}, result("c2-t1", true, "Shell b7f3a1 is not running, so cannot be killed (status: killed)")},
	)
	codexLine := func(typ string, payload map[string]any) map[string]any {
		return map[string]any{"timestamp": "2025-03-01T02:00:00Z", "type": typ, "payload": payload}
	}
	call := func(id, name string, args map[string]any, out string) []map[string]any {
		a, _ := json.Marshal(args)
		return []map[string]any{
			codexLine("response_item", map[string]any{"type": "function_call", "name": name, "arguments": string(a), "call_id": id}),
			codexLine("response_item", map[string]any{"type": "function_call_output", "call_id": id, "output": out}),
		}
	}
	writeJSONL(t, filepath.Join(logs, "codex", "rollout-x1.jsonl"), slices.Concat(
		[]map[string]any{codexLine("session_meta", map[string]any{"id": "x1", "cwd": "/w/web"})},
		call("k0", "exec_command", map[string]any{"cmd": "npm run dev", "yield_time_ms": 10000},
			"Chunk ID: a1\nWall time: 10.0 seconds\nProcess running with session ID 4242\nOriginal token count: 9\nOutput:\n  VITE ready\n"),
		call("k1", "write_stdin", map[string]any{"session_id": 4242, "chars": "\u0003"},
			"Chunk ID: a2\nWall time: 0.0 seconds\nProcess exited with code 130\nOriginal token count: 1\nOutput:\n^C\n"),
	)...)

	rep, all := s.replayRecounted(t, "--path", logs, "--as-project", "web")
	var got []string
	for _, c := range callsOf(all) {
		fired := ""
		for _, f := range c.Fired {
			if f.Slug == slug {
				fired = " +" + slug
			}
		}
		got = append(got, fmt.Sprintf("%s %s %s=%s%s", c.Agent, c.Tool, c.Command, c.Outcome, fired))
	}
	want := []string{
		"claude Bash npm run dev=fine", "claude TaskStop =fine", "claude KillShell =stopped",
		"claude Bash npm run dev=failed +" + slug, "claude KillShell =stopped",
		"codex Bash npm run dev=stopped", "codex write_stdin =fine",
	}
	if !slices.Equal(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Failed != 1 || rep.Stopped != 3 || rep.Repeated != 0 {
		t.Errorf("failed %d, stopped %d, repeated %d; want 1, 3, 0", rep.Failed, rep.Stopped, rep.Repeated)
	}
}
