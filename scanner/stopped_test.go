package scanner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// codexStep is one tool call of a Codex session a test writes: its tool,
// its arguments and the output Codex logged.
type codexStep struct {
	tool string
	args map[string]any
	out  string
}

// writeCodex writes one Codex rollout of a project.
func writeCodex(t *testing.T, dir, project, id string, steps []codexStep) {
	t.Helper()
	var b strings.Builder
	sec := 0
	line := func(typ string, payload any) {
		sec++
		j, _ := json.Marshal(map[string]any{"timestamp": fmt.Sprintf("2026-02-01T00:%02d:%02dZ", sec/60, sec%60), "type": typ, "payload": payload})
		b.Write(j)
		b.WriteByte('\n')
	}
	line("session_meta", map[string]any{"id": id, "cwd": project})
	line("event_msg", map[string]any{"type": "user_message", "message": "start the app and check the page"})
	for i, s := range steps {
		args, _ := json.Marshal(s.args)
		cid := fmt.Sprintf("call_%s_%d", id, i)
		line("response_item", map[string]any{"type": "function_call", "name": s.tool, "arguments": string(args), "call_id": cid})
		line("response_item", map[string]any{"type": "function_call_output", "call_id": cid, "output": s.out})
	}
	if err := os.WriteFile(filepath.Join(dir, "rollout-"+id+".jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// codexOut is exec_command's output: a process still running in a
// session, or one that exited.
func codexOut(session, exit int, out string) string {
	status := fmt.Sprintf("Process exited with code %d", exit)
	if session > 0 {
		status = fmt.Sprintf("Process running with session ID %d", session)
	}
	return "Chunk ID: 1a2b3c\nWall time: 1.0 seconds\n" + status + "\nOriginal token count: 9\nOutput:\n" + out
}

// readOutcomes reads the sessions under dir and gives each call as
// "tool command=outcome", with the repeats and candidates found.
func readOutcomes(t *testing.T, dir string) (calls []string, failed int, candidates []string) {
	t.Helper()
	_, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{dir}, Workers: 1, Candidates: true},
		func(s *LoggedSession) *LoggedSession { return s },
		func(s *LoggedSession) error {
			for _, c := range s.Calls {
				calls = append(calls, fmt.Sprintf("%s %s=%s", c.Tool, c.Command, c.Outcome))
				if c.Outcome == OutcomeFailed {
					failed++
				}
			}
			for _, c := range s.Candidates {
				candidates = append(candidates, c.Summary)
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return calls, failed, candidates
}

// A dev server Codex runs as a session and stops with Ctrl-C through
// write_stdin, or kills and then polls, did not fail; a test that fails
// in its session, and a poll the user aborted, did.
func TestCodexStoppedProcessIsNoFailure(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeCodex(t, dir, "/work/app", id, []codexStep{
			{"exec_command", map[string]any{"cmd": "npm run dev", "yield_time_ms": 10000}, codexOut(4242, 0, "  VITE v5 ready in 300 ms\n")},
			{"write_stdin", map[string]any{"session_id": 4242, "chars": "", "yield_time_ms": 5000}, codexOut(4242, 0, "")},
			{"exec_command", map[string]any{"cmd": "curl -s localhost:5173"}, codexOut(0, 0, "<html></html>\n")},
			{"write_stdin", map[string]any{"session_id": 4242, "chars": "\u0003", "yield_time_ms": 1000}, codexOut(0, 130, "^C\n")},
			{"exec_command", map[string]any{"cmd": "python3 -m http.server 8000", "yield_time_ms": 3000}, codexOut(77, 0, "Serving HTTP on 0.0.0.0 port 8000\n")},
			{"exec_command", map[string]any{"cmd": "pkill -f 'http.server 8000'"}, codexOut(0, 0, "")},
			{"write_stdin", map[string]any{"session_id": 77, "chars": ""}, codexOut(0, 143, "Terminated\n")},
			{"exec_command", map[string]any{"cmd": "npm test", "yield_time_ms": 10000}, codexOut(91, 0, "")},
			{"write_stdin", map[string]any{"session_id": 91, "chars": ""}, codexOut(0, 1, "FAIL src/app.test.js\n  TypeError: render is not a function\n")},
			{"write_stdin", map[string]any{"session_id": 91, "chars": "", "yield_time_ms": 30000}, "aborted by user after 29.7s"},
		})
	}
	calls, failed, _ := readOutcomes(t, dir)
	session := []string{
		"Bash npm run dev=fine", "write_stdin =fine", "Bash curl -s localhost:5173=fine", "write_stdin =stopped",
		"Bash python3 -m http.server 8000=fine", "Bash pkill -f 'http.server 8000'=fine", "write_stdin =stopped",
		"Bash npm test=fine", "write_stdin =failed", "write_stdin =failed",
	}
	if want := slices.Concat(session, session); !slices.Equal(calls, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if failed != 4 {
		t.Errorf("%d failed calls, want 4: the failing test and the aborted poll, twice", failed)
	}
}

// Claude Code runs a dev server in the background and stops it with its
// kill tool (a second stop finds it gone), or with a pkill that ends its
// own shell: none of it failed. A foreground run that timed out did.
func TestClaudeStoppedBackgroundRunIsNoFailure(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"c1", "c2"} {
		writeClaude(t, dir, "/work/app", id, []step{
			call("Bash", map[string]any{"command": "npm run dev", "run_in_background": true}, false, "Command running in background with ID: b7f3a1"),
			run("curl -s localhost:5173", 0, "<html></html>"),
			call("TaskStop", map[string]any{"task_id": "b7f3a1"}, false, `{"message":"Successfully stopped task: b7f3a1 (npm run dev)","task_id":"b7f3a1"}`),
			call("KillShell", map[string]any{"shell_id": "b7f3a1"}, true, "Shell b7f3a1 is not running, so cannot be killed (status: killed)"),
			run(`pkill -f "vite --port 5173"`, 143, ""),
			call("Bash", map[string]any{"command": "npm run dev", "timeout": 120000}, true, "Command timed out after 2m 0.0s"),
		})
	}
	calls, failed, _ := readOutcomes(t, dir)
	session := []string{
		"Bash npm run dev=fine", "Bash curl -s localhost:5173=fine", "TaskStop =fine", "KillShell =stopped",
		`Bash pkill -f "vite --port 5173"=stopped`, "Bash npm run dev=failed",
	}
	if want := slices.Concat(session, session); !slices.Equal(calls, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if failed != 2 {
		t.Errorf("%d failed calls, want 2: the foreground run that timed out, twice", failed)
	}
}

func TestKillsProcess(t *testing.T) {
	for cmd, want := range map[string]bool{
		"kill 4242":                         true,
		"kill -9 $(cat /tmp/dev.pid)":       true,
		`pkill -f "next dev"`:               true,
		"lsof -ti:3000 | xargs kill":        true,
		"sleep 1; killall node":             true,
		"fuser -k 8000/tcp":                 true,
		"fuser 8000/tcp":                    false,
		"grep -r killSwitch src":            false,
		"npm run kill-port":                 false,
		"go test ./internal/killswitch/...": false,
	} {
		if got := killsProcess(cmd); got != want {
			t.Errorf("killsProcess(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// What a call's input says of the process it runs or acts on, as each
// agent's tool schema puts it.
func TestProcessSettings(t *testing.T) {
	for _, tt := range []struct {
		name, input string
		want        Call
	}{
		{"Bash", `{"command":"npm run dev","run_in_background":true}`, Call{Background: true}},
		{"Bash", `{"command":"npm run dev","timeout":60000}`, Call{}},
		{"run_shell_command", `{"command":"npm run dev","is_background":true}`, Call{Background: true}},
		{"exec_command", `"{\"cmd\":\"npm run dev\",\"yield_time_ms\":10000}"`, Call{Background: true}},
		{"exec_command", `"{\"cmd\":\"npm run dev\"}"`, Call{Background: true}},
		{"exec_command", `"{\"cmd\":\"npm run dev\",\"timeout_ms\":10000}"`, Call{}},
		{"shell", `"{\"command\":[\"bash\",\"-lc\",\"npm run dev\"],\"timeout_ms\":120000}"`, Call{}},
		{"write_stdin", `"{\"session_id\":4242,\"chars\":\"\\u0003\"}"`, Call{Stops: true, Session: "4242"}},
		{"write_stdin", `"{\"session_id\":4242,\"chars\":\"\"}"`, Call{Session: "4242"}},
		{"write_stdin", `"{\"session_id\":4242,\"chars\":\"q\\n\"}"`, Call{Session: "4242"}},
		{"TaskStop", `{"task_id":"b7f3a1"}`, Call{Stops: true}},
		{"KillShell", `{"shell_id":"b7f3a1"}`, Call{Stops: true}},
	} {
		c := newCall(tt.name, []byte(tt.input))
		got := Call{Stops: c.Stops, Session: c.Session, Background: c.Background}
		if got != tt.want {
			t.Errorf("newCall(%s, %s): stops %v, session %q, background %v; want %+v", tt.name, tt.input, got.Stops, got.Session, got.Background, tt.want)
		}
	}
}
