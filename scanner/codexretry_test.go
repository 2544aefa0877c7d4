package scanner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cxStep is one call of a Codex session a test writes, as Codex CLI
// 0.169 logs it: a function call (arguments as a JSON string) or a
// freeform custom tool call (input as text), and its output; out is ""
// for a call whose output never came.
type cxStep struct {
	tool   string
	args   map[string]any // a function call's arguments
	input  string         // a custom tool call's input (apply_patch)
	out    string
	custom bool
	parts  []string // a custom tool call's output as text parts (code mode)
}

// execCmd is an exec_command call; exit < 0 leaves it running under
// session id -exit, with no exit status yet.
func execCmd(args map[string]any, exit int, out string) cxStep {
	if exit < 0 {
		return cxStep{tool: "exec_command", args: args, out: fmt.Sprintf(
			"Chunk ID: 4f2a1c\nWall time: 10.0021 seconds\nProcess running with session ID %d\nOriginal token count: 3\nOutput:\n%s", -exit, out)}
	}
	return cxStep{tool: "exec_command", args: args, out: fmt.Sprintf(
		"Chunk ID: 4f2a1c\nWall time: 0.0210 seconds\nProcess exited with code %d\nOriginal token count: 9\nOutput:\n%s", exit, out)}
}

// pollExit is a write_stdin poll of session id that reports its process
// ended with exit.
func pollExit(id, exit int, out string) cxStep {
	return cxStep{tool: "write_stdin", args: map[string]any{"session_id": id, "chars": "", "yield_time_ms": 30000, "max_output_tokens": 60000},
		out: fmt.Sprintf("Chunk ID: 9c01be\nWall time: 4.5020 seconds\nProcess exited with code %d\nOriginal token count: 9\nOutput:\n%s", exit, out)}
}

// patch is an apply_patch custom tool call and its output.
func patch(input, out string) cxStep {
	return cxStep{tool: "apply_patch", input: input, out: out, custom: true}
}

// writeCodex writes one Codex rollout of a project.
func writeCodex(t *testing.T, dir, project, id string, steps []cxStep) string {
	t.Helper()
	var b strings.Builder
	sec := 0
	line := func(typ string, payload map[string]any) {
		sec++
		j, _ := json.Marshal(map[string]any{"timestamp": fmt.Sprintf("2026-06-18T08:%02d:%02d.000Z", sec/60, sec%60), "type": typ, "payload": payload})
		b.Write(j)
		b.WriteByte('\n')
	}
	line("session_meta", map[string]any{"id": id, "cwd": project, "originator": "codex_exec", "cli_version": "0.169.0", "source": "exec"})
	line("turn_context", map[string]any{"cwd": project, "approval_policy": "never", "model": "gpt-5.5"})
	line("response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "do the task"}}})
	for i, s := range steps {
		cid := fmt.Sprintf("call_%s%02d", id, i)
		if s.custom {
			line("response_item", map[string]any{"type": "custom_tool_call", "status": "completed", "call_id": cid, "name": s.tool, "input": s.input})
			var out any = s.out
			if s.parts != nil {
				var parts []any
				for _, p := range s.parts {
					parts = append(parts, map[string]any{"type": "input_text", "text": p})
				}
				out = parts
			}
			line("response_item", map[string]any{"type": "custom_tool_call_output", "call_id": cid, "output": out})
			continue
		}
		args, _ := json.Marshal(s.args)
		line("response_item", map[string]any{"type": "function_call", "name": s.tool, "arguments": string(args), "call_id": cid})
		if s.out != "" {
			line("response_item", map[string]any{"type": "function_call_output", "call_id": cid, "output": s.out})
		}
	}
	f := filepath.Join(dir, "rollout-2026-06-18T08-00-00-"+id+".jsonl")
	if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// retryClaims are the candidates of dir whose text says a later call
// the same as the failed one worked.
func retryClaims(t *testing.T, dir string) []Candidate {
	t.Helper()
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	var out []Candidate
	for _, c := range candidates(t, state) {
		if strings.Contains(c.Solution, "same arguments") || strings.Contains(c.Solution, "run again unchanged") {
			out = append(out, c)
		}
	}
	return out
}

// TestCodexRunningIsNoOutcome: a command Codex left running is not a
// command that worked; the exit status a later poll reports is the
// command's. A test run that fails, then runs long and fails again, is
// no "worked when run again unchanged", and the log's calls say the
// second run failed, not its poll.
func TestCodexRunningIsNoOutcome(t *testing.T) {
	dir := t.TempDir()
	fail := "error: Cannot find module 'zod' from '/repo/shop/src/cart.ts'"
	run := map[string]any{"cmd": "bun test src/cart.test.ts", "workdir": "/repo/shop", "yield_time_ms": 10000}
	writeCodex(t, dir, "/repo/shop", "s1", []cxStep{
		execCmd(run, 1, fail),
		execCmd(run, -41234, "bun test v1.2.3"),
		pollExit(41234, 1, fail),
	})
	if cs := retryClaims(t, dir); len(cs) != 0 {
		t.Errorf("a run still going read as one that worked: %q", cs[0].Solution)
	}
	var got []string
	_, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{dir}, Workers: 1},
		func(s *LoggedSession) []LoggedCall { return s.Calls },
		func(calls []LoggedCall) error {
			for _, c := range calls {
				got = append(got, c.Tool+" "+c.Outcome.String())
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	want := "Bash failed, Bash failed, write_stdin fine"
	if strings.Join(got, ", ") != want {
		t.Errorf("outcomes %q, want %q", strings.Join(got, ", "), want)
	}
}

// TestCodexRetryClaimsAreLiteral: a lesson says the same call worked
// when run again only when it was the same call: not another pattern
// after the same cd, not the same command in another working
// directory, not another patch of the same file, not an MCP tool with
// another nested input or a freeform tool with another text. The same
// call run again unchanged still says so.
func TestCodexRetryClaimsAreLiteral(t *testing.T) {
	cases := []struct {
		name  string
		steps []cxStep
		claim bool
	}{
		{"another search after the same cd", []cxStep{
			execCmd(map[string]any{"cmd": `cd /repo/shop && grep -rn "total" src/cart.tss`}, 2, "grep: src/cart.tss: No such file or directory"),
			execCmd(map[string]any{"cmd": `cd /repo/shop && grep -rn "total" src/cart.ts`}, 0, "3: total"),
		}, false},
		{"another awk program in the same pipeline", []cxStep{
			execCmd(map[string]any{"cmd": `cd /repo/shop && curl -s http://127.0.0.1:8080/items | jq -r '.[] | @tsv' | awk -F '\t' '{if ($2<=14) print "fresh"; else print "stale}'`}, 1, "zsh:1: unmatched '"),
			execCmd(map[string]any{"cmd": `cd /repo/shop && curl -s http://127.0.0.1:8080/items | jq -r '.[] | @tsv' | awk -F '\t' '{if ($2<=14) print "fresh"; else print "stale"}'`}, 0, "fresh"),
		}, false},
		{"the same command in another working directory", []cxStep{
			execCmd(map[string]any{"cmd": "make check", "workdir": "/repo/shop/web"}, 2, "make: *** No rule to make target 'check'.  Stop."),
			execCmd(map[string]any{"cmd": "make check", "workdir": "/repo/shop"}, 0, "ok"),
		}, false},
		{"another patch of the same file", []cxStep{
			patch("*** Begin Patch\n*** Update File: /repo/shop/src/cart.ts\n@@\n-const tax = 0.2\n+const tax = rate()\n*** End Patch\n",
				"apply_patch verification failed: Failed to find expected lines in /repo/shop/src/cart.ts:\nconst tax = 0.2"),
			patch("*** Begin Patch\n*** Update File: /repo/shop/src/cart.ts\n@@\n-const tax = 0.21\n+const tax = rate()\n*** End Patch\n",
				"Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM /repo/shop/src/cart.ts\n"),
		}, false},
		{"an MCP tool with another nested input", []cxStep{
			{tool: "mcp__warehouse__query", args: map[string]any{"input": map[string]any{"sql": "SELEC id FROM items"}}, out: "Error: syntax error at or near SELEC"},
			{tool: "mcp__warehouse__query", args: map[string]any{"input": map[string]any{"sql": "SELECT id FROM items"}}, out: "[{\"id\": 1}]"},
		}, false},
		{"a freeform tool with another text", []cxStep{
			{tool: "js", input: "console.log(items.lenght.toFixed())", out: "Error: TypeError: Cannot read properties of undefined", custom: true},
			{tool: "js", input: "console.log(items.length.toFixed())", out: "3", custom: true},
		}, false},
		{"the same call again", []cxStep{
			execCmd(map[string]any{"cmd": "bun run migrate", "workdir": "/repo/shop"}, 1, "error: connect ECONNREFUSED 127.0.0.1:5432"),
			execCmd(map[string]any{"cmd": "bun run migrate", "workdir": "/repo/shop"}, 0, "migrated"),
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeCodex(t, dir, "/repo/shop", "s1", c.steps)
			cs := retryClaims(t, dir)
			switch {
			case c.claim && len(cs) == 0:
				t.Errorf("no lesson says the same call worked again, and it did")
			case !c.claim && len(cs) > 0:
				t.Errorf("a lesson says the same call worked, and no such call did: %q", cs[0].Solution)
			}
		})
	}
}

// TestScanWhileTheAgentWritesTheResult: a scan reads the log while the
// agent is still writing it, up to half the line of a failed call's
// result. The next scan, once the session is over, still sees the call:
// the state resumes at a call whose result was not written yet, as at a
// failure still open. Before, it resumed after the call, the result named
// a call the reader never saw, and the retry was lost (a hook's scan
// during a Codex session, in the real-agent suite on a loaded machine).
func TestScanWhileTheAgentWritesTheResult(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	f := writeCodex(t, dir, "/repo/app", "s1", []cxStep{
		execCmd(map[string]any{"cmd": "./deploy.sh"}, 2, "error: --env is required\n"),
		execCmd(map[string]any{"cmd": "./deploy.sh --env dev"}, 0, "deployed to dev\n"),
	})
	full, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(full, []byte(`"function_call_output"`))
	if err := os.WriteFile(f, full[:at], 0o644); err != nil {
		t.Fatal(err)
	}
	scan(t, state, Options{Paths: []string{dir}, Now: time.Now}) // the session is being written
	if err := os.WriteFile(f, full, 0o644); err != nil {
		t.Fatal(err)
	}
	scan(t, state, Options{Paths: []string{dir}}) // an hour later
	if c := find(candidates(t, state), KindRetry, "./deploy.sh"); c == nil || !strings.Contains(c.Summary, "--env") {
		t.Errorf("retry %+v: want deploy.sh's, adding --env", c)
	}
}
