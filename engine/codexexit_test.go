package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codexItem is a rollout line as Codex 0.169.0 logs a finished shell
// call.
func codexItem(id, command string, exit int, output string) string {
	return fmt.Sprintf(`{"timestamp":"2026-11-24T11:40:42.842Z","ordinal":12,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"CommandExecution","id":%q,"process_id":"39352","command":["/bin/bash","-lc",%q],"source":"unified_exec_startup","status":"failed","aggregated_output":%q,"exit_code":%d,"duration":{"secs":0,"nanos":24386}}}}`,
		id, command, output, exit) + "\n"
}

// TestCodexExit: Codex's PostToolUse gives the output text only; the
// exit code comes from the session's rollout file, the text where the
// file does not say.
func TestCodexExit(t *testing.T) {
	dir := t.TempDir()
	rollout := filepath.Join(dir, "rollout.jsonl")
	big := strings.Repeat("x", codexTail)
	data := codexItem("call_1", "make", 2, "old") + // past the tail read
		codexItem("call_2", "cat big", 0, big) +
		`{"type":"response_item","payload":{"type":"function_call","call_id":"call_10","arguments":"{\"cmd\":\"./deploy.sh\"}"}}` + "\n" +
		codexItem("call_10", "./deploy.sh", 2, "error: --env is required\n") +
		codexItem("call_100", "./deploy.sh --env staging", 0, "deployed\n") +
		codexItem("call_11", "rg TODO", 1, "") +
		`{"type": "event_msg", "payload": {"type": "item_completed", "item": {"id": "call_30", "exit_code": 3}}}` + "\n" + // spaced JSON
		`{"type":"event_msg","payload":{"type":"item_started","item":{"id":"call_31","exit_code":4}}}` + "\n" + // not finished
		codexItem("call_20", "make lint", 2, strings.Repeat("a.go:1: lint\n", 1000)) // past the first, short read
	if err := os.WriteFile(rollout, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, transcript, id, command, response string
		failed                                  bool
		errLine                                 string
	}{
		{"silent non-zero exit", rollout, "call_10", "./deploy.sh", "error: --env is required\n", true, "error: --env is required"},
		{"success", rollout, "call_100", "./deploy.sh --env staging", "deployed\n", false, ""},
		{"rg 1 is no match", rollout, "call_11", "rg TODO", "", false, ""},
		{"spacing does not matter", rollout, "call_30", "make", "", true, ""},
		{"only a finished item counts", rollout, "call_31", "make", "", false, ""},
		{"the last line", rollout, "call_20", "make lint", "a.go:1: lint\n", true, "a.go:1: lint"},
		{"not logged: the text decides", rollout, "call_12", "jq .", "bash: line 1: jq: command not found", true, "bash: line 1: jq: command not found"},
		{"past the tail: the text decides", rollout, "call_1", "make", "make: *** no rule", false, ""},
		{"no file", filepath.Join(dir, "none.jsonl"), "call_10", "./deploy.sh", "error: --env is required\n", false, ""},
		{"a directory", dir, "call_10", "./deploy.sh", "error: --env is required\n", false, ""},
	}
	for _, tt := range tests {
		resp, _ := json.Marshal(tt.response)
		p := Payload{TranscriptPath: tt.transcript, ToolUseID: tt.id, ToolResponse: resp}
		got := p.outcome("codex", "PostToolUse", tt.command)
		if got.failed != tt.failed || got.errLine != tt.errLine {
			t.Errorf("%s: outcome = %+v, want failed %v, errLine %q", tt.name, got, tt.failed, tt.errLine)
		}
	}
}
