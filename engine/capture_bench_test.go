package engine

import (
	"bytes"
	"fmt"
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
	for _, c := range []struct {
		name    string
		payload []byte
	}{{"PreToolUse-nomatch", pre}, {"PostToolUse-success", post}, {"PostToolUseFailure", fail}} {
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
