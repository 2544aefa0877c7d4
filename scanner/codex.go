package scanner

import (
	"bytes"
	"strings"
)

// Codex rollouts: {"timestamp", "type", "payload"} per line. The exit
// status of a command is only in the text of its output.

var codexRunning = []byte("Process running with session ID")

// codexLine turns one Codex record into events.
func codexLine(b []byte, n int, s sink) {
	f := fields(b, "type", "payload")
	typ, p := str(f[0]), f[1]
	if p == nil {
		return
	}
	switch typ {
	case "session_meta":
		m := fields(p, "id", "cwd")
		sess := s.session()
		if sess.ID == "" {
			sess.ID = str(m[0])
		}
		if sess.Project == "" {
			sess.Project = str(m[1])
		}
	case "turn_context":
		if sess := s.session(); sess.Project == "" {
			sess.Project = str(field(p, "cwd"))
		}
	case "compacted":
		s.event(Event{Kind: Compaction, Line: n})
	case "response_item":
		codexItem(p, n, s)
	case "event_msg":
		codexEvent(p, n, s)
	}
}

func codexItem(p []byte, n int, s sink) {
	f := fields(p, "type", "role", "content", "name", "arguments", "input", "call_id", "output", "action", "status")
	id := str(f[6])
	switch str(f[0]) {
	case "message":
		switch str(f[1]) {
		case "assistant":
			s.event(Event{Kind: AssistantText, Line: n, Text: text(f[2])})
		case "user":
			humanText(text(f[2]), n, "", s)
		}
	case "function_call":
		s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: newCall(str(f[3]), f[4])})
	case "custom_tool_call":
		c := &Call{Tool: str(f[3])}
		applyPatch(c, str(f[5]))
		if !strings.HasPrefix(str(f[3]), "apply_patch") {
			c = newCall(str(f[3]), f[5])
		}
		s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: c})
	case "local_shell_call":
		c := &Call{Tool: "Bash", Command: shellCommand(orNull(field(f[8], "command")))}
		s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: c})
	case "function_call_output", "custom_tool_call_output":
		out := f[7]
		if len(out) > 0 && out[0] == '{' { // {"content": …, "success": …}
			out = field(out, "content")
		}
		s.event(Event{Kind: ToolResult, Line: n, CallID: id, Result: codexResult(out)})
	}
}

// runningSession reads the session id that follows codexRunning.
func runningSession(rest []byte) string {
	rest = bytes.TrimLeft(rest, " ")
	n := 0
	for n < len(rest) && n < maxSessionID && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return string(rest[:n])
}

func orNull(b []byte) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}

// codexResult reads a command's outcome from its raw output string,
// decoding the string only when the command failed.
func codexResult(raw []byte) *Result {
	r := &Result{ExitCode: exitCode(raw)}
	if i := bytes.Index(raw[:min(len(raw), 200)], codexRunning); i >= 0 {
		r.Session = runningSession(raw[i+len(codexRunning):])
		return r
	}
	if r.ExitCode == 0 {
		return r
	}
	out := str(raw)
	if r.ExitCode < 0 && len(out) > 200 {
		return r // a long output with no status is a tool's normal answer
	}
	if ok, reason := rejection(out); ok {
		r.IsError, r.Output = true, reason
		return r
	}
	r.Timeout = timedOut(out)
	lower := strings.ToLower(out[:min(len(out), 200)])
	if r.ExitCode < 0 && (strings.HasPrefix(lower, "error") || strings.HasPrefix(lower, "failed") ||
		strings.HasPrefix(lower, "verification failed") || strings.Contains(lower, "aborted")) {
		r.IsError = true
	}
	if r.Failed() {
		r.Output = keepOutput(out)
	}
	return r
}

func codexEvent(p []byte, n int, s sink) {
	f := fields(p, "type", "message", "call_id", "exit_code", "success", "stderr", "aggregated_output")
	switch str(f[0]) {
	case "user_message":
		humanText(str(f[1]), n, "", s)
	case "turn_aborted":
		s.event(Event{Kind: Interrupt, Line: n})
	case "context_compacted":
		s.event(Event{Kind: Compaction, Line: n})
	case "exec_command_end":
		r := &Result{ExitCode: integer(f[3], -1)}
		if r.Failed() {
			r.Output = keepOutput(firstString(f[6], f[5]))
		}
		s.event(Event{Kind: ToolResult, Line: n, CallID: str(f[2]), Result: r})
	case "patch_apply_end":
		if string(f[4]) == "false" {
			s.event(Event{Kind: ToolResult, Line: n, CallID: str(f[2]), Result: &Result{IsError: true, ExitCode: -1, Output: str(f[5])}})
		}
	}
}
