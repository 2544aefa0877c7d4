package scanner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

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

// stdin is a write_stdin call to session id writing chars, and what
// Codex answered.
func stdin(id int, chars, out string) cxStep {
	return cxStep{tool: "write_stdin", args: map[string]any{"session_id": id, "chars": chars, "yield_time_ms": 1000}, out: out}
}

// exited is exec_command's and write_stdin's output for a process that
// ended.
func exited(code int, out string) string {
	return fmt.Sprintf("Chunk ID: 1a2b3c\nWall time: 0.0234 seconds\nProcess exited with code %d\nOriginal token count: 1\nOutput:\n%s", code, out)
}

// A dev server Codex runs as a session and stops with Ctrl-C through
// write_stdin, or kills and then polls, did not fail, and neither did a
// Ctrl-C whose command the log does not hold, nor a test run the user
// aborted by interrupting the turn ("aborted by user after 29.7s", the
// output Codex gives a call the user's Esc cut short, as opencode's
// "Tool execution aborted"); a build that failed did.
func TestCodexStoppedProcessIsNoFailure(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeCodex(t, dir, "/work/app", id, []cxStep{
			execCmd(map[string]any{"cmd": "npm run dev", "yield_time_ms": 10000}, -4242, "  VITE v5 ready in 300 ms\n"),
			stdin(4242, "", "Chunk ID: 2b\nWall time: 5.0 seconds\nProcess running with session ID 4242\nOriginal token count: 0\nOutput:\n"),
			execCmd(map[string]any{"cmd": "curl -s localhost:5173"}, 0, "<html></html>\n"),
			stdin(4242, "\u0003", exited(130, "^C\n")),
			execCmd(map[string]any{"cmd": "python3 -m http.server 8000", "yield_time_ms": 3000}, -77, "Serving HTTP on 0.0.0.0 port 8000\n"),
			execCmd(map[string]any{"cmd": "pkill -f 'http.server 8000'"}, 0, ""),
			stdin(77, "", exited(143, "Terminated\n")),
			stdin(5150, "\u0003", exited(130, "^C\n")),
			execCmd(map[string]any{"cmd": "npm test", "yield_time_ms": 10000}, -91, ""),
			stdin(91, "", "aborted by user after 29.7s"),
			execCmd(map[string]any{"cmd": "npm run build"}, 2, "src/app.ts(3,1): error TS2304: Cannot find name 'render'.\n"),
		})
	}
	calls, failed, _ := readOutcomes(t, dir)
	session := []string{
		"Bash npm run dev=stopped", "write_stdin =fine", "Bash curl -s localhost:5173=fine", "write_stdin =fine",
		"Bash python3 -m http.server 8000=stopped", "Bash pkill -f 'http.server 8000'=fine", "write_stdin =fine",
		"write_stdin =stopped", "Bash npm test=stopped", "write_stdin =fine", "Bash npm run build=failed",
	}
	if want := slices.Concat(session, session); !slices.Equal(calls, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if failed != 2 {
		t.Errorf("%d failed calls, want 2: the build, twice", failed)
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
