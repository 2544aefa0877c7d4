package scanner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// step is one turn of a Claude Code session a test writes: a shell
// command or a file write with its outcome (exit 0 for success).
type step struct {
	cmd, path, content string
	exit               int
	out                string
	// tool and input make a call of another tool; failed marks its error.
	tool   string
	input  map[string]any
	failed bool
	// text is what the agent wrote, with no call.
	text string
}

// say is a turn of the agent's text.
func say(text string) step { return step{text: text} }

func run(cmd string, exit int, out string) step { return step{cmd: cmd, exit: exit, out: out} }
func write(path, content string) step           { return step{path: path, content: content} }

// call is a call of a tool other than the shell: failed with out as its
// error, or fine with out as its result.
func call(tool string, input map[string]any, failed bool, out string) step {
	return step{tool: tool, input: input, failed: failed, out: out}
}

// writeClaude writes one session of a project as Claude Code logs it.
func writeClaude(t *testing.T, dir, project, id string, steps []step) {
	t.Helper()
	var b strings.Builder
	line := func(v any) {
		j, _ := json.Marshal(v)
		b.Write(j)
		b.WriteByte('\n')
	}
	sec := 0
	rec := func(typ string, content any) map[string]any {
		sec++
		return map[string]any{"sessionId": id, "cwd": project, "type": typ, "uuid": fmt.Sprintf("%s-%d", id, sec),
			"timestamp": fmt.Sprintf("2026-01-01T00:%02d:%02dZ", sec/60, sec%60), "message": map[string]any{"content": content}}
	}
	line(rec("user", "do the task"))
	for i, s := range steps {
		if s.text != "" {
			line(rec("assistant", []any{map[string]any{"type": "text", "text": s.text}}))
			continue
		}
		tid := fmt.Sprintf("%s-t%d", id, i)
		input := map[string]any{"command": s.cmd}
		name := "Bash"
		if s.path != "" {
			name, input = "Write", map[string]any{"file_path": s.path, "content": s.content}
		}
		if s.tool != "" {
			name, input = s.tool, s.input
		}
		line(rec("assistant", []any{map[string]any{"type": "tool_use", "id": tid, "name": name, "input": input}}))
		res := map[string]any{"type": "tool_result", "tool_use_id": tid, "content": s.out}
		if s.exit != 0 {
			res["is_error"], res["content"] = true, fmt.Sprintf("Exit code %d\n%s", s.exit, s.out)
		}
		if s.failed {
			res["is_error"] = true
		}
		line(rec("user", []any{res}))
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
