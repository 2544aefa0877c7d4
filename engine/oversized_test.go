package engine

import (
	"strings"
	"testing"
)

// The lexer of oversized payloads gives the same text and fields however
// the payload is cut into chunks.
func TestStringLexer(t *testing.T) {
	payload := `{"session_id":"s1","tool_input":{"command":"echo \"a\"\nrm -rf ~ \u00e9\\"},` +
		`"list":["x",{"k":"v"}],"toolCall":{"name":"run_command","args":{"deep":"no"}},"tool_name":"Bash"}`
	for _, size := range []int{1, 3, 7, len(payload)} {
		lx := newStringLexer()
		for p := payload; p != ""; p = p[min(size, len(p)):] {
			lx.feed([]byte(p[:min(size, len(p))]))
		}
		if !strings.Contains(string(lx.text), "\necho \"a\"\nrm -rf ~ é\\\n") {
			t.Errorf("chunks of %d: text = %q", size, lx.text)
		}
		want := map[string]string{"session_id": "s1", "tool_input.command": "echo \"a\"\nrm -rf ~ é\\",
			"toolCall.name": "run_command", "tool_name": "Bash"}
		for k, v := range want {
			if lx.fields[k] != v {
				t.Errorf("chunks of %d: field %s = %q, want %q", size, k, lx.fields[k], v)
			}
		}
		for _, k := range []string{"list", "k", "args.deep", "deep"} {
			if v, ok := lx.fields[k]; ok {
				t.Errorf("chunks of %d: kept field %s = %q", size, k, v)
			}
		}
	}
}
