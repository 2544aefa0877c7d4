package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkHookOutcome runs outcome events in-process: a success with no
// failure on record (every call pays it), next to a PreToolUse that
// matches no lesson; and a failure, which opens the manifest to check
// that no lesson covers it, and writes its record.
func BenchmarkHookOutcome(b *testing.B) {
	h, project := benchHook(b)
	const cmd = "go test ./internal/... -run TestParse -count 1"
	pre := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q}}`, project, cmd))
	post := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":%q},`+
		`"tool_response":{"stdout":"ok  example.com/app/internal/parse 0.01s","stderr":"","interrupted":false}}`, project, cmd))
	fail := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":%q},`+
		`"error":"Exit code 1\n--- FAIL: TestParse (0.00s)"}`, project, cmd))
	// Codex's success: its exit code is read from the tail of a 1 MB
	// session file.
	rollout := filepath.Join(b.TempDir(), "rollout.jsonl")
	var log strings.Builder
	for i := 0; log.Len() < 1<<20; i++ {
		log.WriteString(codexItem(fmt.Sprintf("call_%d", i), "ls", 0, strings.Repeat("a.go\n", 40)))
	}
	log.WriteString(codexItem("call_last", cmd, 0, "ok  example.com/app/internal/parse 0.01s\n"))
	if err := os.WriteFile(rollout, []byte(log.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	codex := []byte(fmt.Sprintf(`{"session_id":"bench","turn_id":"t","transcript_path":%q,"cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash",`+
		`"tool_input":{"command":%q},"tool_response":"ok  example.com/app/internal/parse 0.01s\n","tool_use_id":"call_last"}`, rollout, project, cmd))
	for _, c := range []struct {
		name    string
		payload []byte
	}{{"PreToolUse-nomatch", pre}, {"PostToolUse-success", post}, {"PostToolUse-codex", codex}, {"PostToolUseFailure", fail}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				var out bytes.Buffer
				h.Run(bytes.NewReader(c.payload), &out)
				if out.String() != "{}\n" {
					b.Fatalf("answer %s", out.String())
				}
			}
		})
	}
}
