package scanner

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestCodexRejectionIsARejection: Codex answers a call the user declined
// with `exec_command failed: CreateProcess { message: "Rejected(\"rejected
// by user\")" }`, aborts the turn, and the user then says why. That is a
// rejection whose reason is the user's next words, not a failure that
// printed nothing; a question after it is no reason.
func TestCodexRejectionIsARejection(t *testing.T) {
	for _, tc := range []struct {
		name, said string
		want       bool
	}{
		{"reason in the next turn", "branches follow the numbered NNN-short-name scheme, like 004-log-in", true},
		{"a question", "why do you want a new branch?", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			f := writeCodex(t, dir, "/p", "s1", []cxStep{
				{tool: "exec_command", args: map[string]any{"cmd": "git checkout -b uc-04", "sandbox_permissions": "require_escalated"},
					out: `exec_command failed: CreateProcess { message: "Rejected(\"rejected by user\")" }`},
			})
			var b strings.Builder
			for _, l := range []map[string]any{
				{"timestamp": "2026-06-18T08:10:00.000Z", "type": "event_msg", "payload": map[string]any{"type": "turn_aborted", "reason": "interrupted"}},
				{"timestamp": "2026-06-18T08:10:01.000Z", "type": "response_item", "payload": map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": tc.said}}}},
				{"timestamp": "2026-06-18T08:10:01.000Z", "type": "event_msg", "payload": map[string]any{"type": "user_message", "message": tc.said}},
			} {
				j, _ := json.Marshal(l)
				b.Write(j)
				b.WriteByte('\n')
			}
			out, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			out.WriteString(b.String())
			out.Close()
			scan(t, state, Options{Paths: []string{dir}})
			var rej []Candidate
			for _, c := range candidates(t, state) {
				if c.Kind == KindRejection {
					rej = append(rej, c)
				}
				if c.Kind != KindRejection && strings.Contains(c.Problem, "Rejected") {
					t.Errorf("the rejection read as a failure: %s %q", c.Kind, c.Summary)
				}
			}
			if !tc.want {
				if len(rej) != 0 {
					t.Fatalf("a question taken as the reason: %q", rej[0].Summary)
				}
				return
			}
			if len(rej) != 1 || !strings.Contains(rej[0].Summary+rej[0].Solution, "NNN-short-name") {
				t.Fatalf("rejections %+v, want one in the user's words", rej)
			}
		})
	}
}
