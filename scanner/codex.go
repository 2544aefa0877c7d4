package scanner

import (
	"bytes"
	"strings"
)

// Codex rollouts: {"timestamp", "type", "payload"} per line. The exit
// status of a command is only in the text of its output.
//
// A command that outlives its call's wait (exec_command's yield_time_ms)
// answers "Process running with session ID N": no outcome yet. Its exit
// status comes later, in the output of a write_stdin call that polls
// session N, and it is the command's outcome, not the poll's: the reader
// pairs the two, so that a command still running is never read as one
// that worked, and a poll never as the command that failed.

var codexRunning = []byte("Process running with session ID")

// maxCodexSessions caps the running commands and polls a reader keeps.
const maxCodexSessions = 256

// codexReader reads one Codex rollout, pairing polls with the commands
// they poll.
type codexReader struct {
	running map[string]string // process session id: the call that started it
	polls   map[string]string // a write_stdin call's id: the session it polls
	stops   map[string]bool   // the polls that stop their process (Ctrl-C; stopped.go)
}

func newCodexReader() *codexReader {
	return &codexReader{running: map[string]string{}, polls: map[string]string{}, stops: map[string]bool{}}
}

// line turns one Codex record into events.
func (cr *codexReader) line(b []byte, n int, s sink) {
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
		cr.item(p, n, s)
	case "event_msg":
		codexEvent(p, n, s)
	}
}

func (cr *codexReader) item(p []byte, n int, s sink) {
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
		c := newCall(str(f[3]), f[4])
		if str(f[3]) == "write_stdin" {
			cr.notePoll(id, pollSession(f[4]), c.Stops)
		}
		s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: c})
	case "custom_tool_call":
		if str(f[3]) == codeModeTool {
			c := codeModeCall(f[5])
			cr.notePoll(id, c.Session, c.Stops)
			s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: c})
			return
		}
		c := &Call{Tool: str(f[3])}
		applyPatch(c, str(f[5]))
		if !strings.HasPrefix(str(f[3]), "apply_patch") {
			c = newCall(str(f[3]), f[5])
		}
		c.Sum = digest(f[5]) // a freeform input is the whole call
		s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: c})
	case "local_shell_call":
		a := fields(f[8], "command", "working_directory")
		c := &Call{Tool: "Bash", Command: shellCommand(orNull(a[0])), Dir: str(a[1]), Sum: digest(f[8])}
		s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: c})
	case "function_call_output", "custom_tool_call_output":
		out := f[7]
		if t := codeModeOutput(out); t != "" {
			if r, running, cell := codeModeResult(t); cell {
				cr.cellOutput(id, r, running, n, s)
				return
			}
		}
		if len(out) > 0 && out[0] == '{' { // {"content": …, "success": …}
			out = field(out, "content")
		}
		cr.output(id, out, n, s)
	}
}

// notePoll remembers a write_stdin call (or a code-mode cell that is
// one) that polls process session sid, and whether it stops it.
func (cr *codexReader) notePoll(id, sid string, stops bool) {
	if sid == "" || len(cr.polls) >= maxCodexSessions {
		return
	}
	cr.polls[id] = sid
	if stops {
		cr.stops[id] = true
	}
}

// cellOutput reads a code-mode cell's outcome as output reads a call's
// (settle). A poll of a command started before the log, or printed in a
// form the reader does not know, has no outcome of its own: a poll does
// not fail, the command does. A cell still running (r nil) has none yet.
func (cr *codexReader) cellOutput(id string, r *Result, running string, n int, s sink) {
	if r == nil && running == "" {
		return
	}
	cr.settle(id, r, running, false, n, s)
}

// output reads a call's output: a command still running has no outcome
// yet; a poll's report of the end of a command it polls is that
// command's outcome, and the poll itself worked (settle).
func (cr *codexReader) output(id string, out []byte, n int, s sink) {
	cr.settle(id, codexResult(out), runningSession(out), true, n, s)
}

// settle gives call id its outcome r. running is the session of a
// command the call left running ("?" when its output does not say
// which): no outcome yet, it comes with a poll. A poll's r is the outcome
// of the command it polls, and the poll itself worked; a poll of a
// command the log did not start keeps r when own is set.
func (cr *codexReader) settle(id string, r *Result, running string, own bool, n int, s sink) {
	sid, poll := cr.polls[id]
	stops := cr.stops[id]
	delete(cr.polls, id)
	delete(cr.stops, id)
	worked := &Result{ExitCode: -1}
	if running != "" {
		if !poll && running != "?" && len(cr.running) < maxCodexSessions {
			cr.running[running] = id // its outcome comes with a poll
		}
		if poll {
			s.event(Event{Kind: ToolResult, Line: n, CallID: id, Result: worked})
		}
		return
	}
	started, ok := cr.running[sid]
	switch {
	case r.Rejected:
		// the user refused it: a rejection, whose reason comes with it or
		// in the user's next words, not a failure of the call
		s.event(Event{Kind: Rejection, Line: n, CallID: id, Text: r.Output})
		return
	case !poll || !ok && own:
		s.event(Event{Kind: ToolResult, Line: n, CallID: id, Result: r})
		return
	case ok:
		delete(cr.running, sid)
		r.Stopped = r.Stopped || stops // the poll was a Ctrl-C: whatever the exit, the agent ended it
		s.event(Event{Kind: ToolResult, Line: n, CallID: started, Result: r})
	}
	s.event(Event{Kind: ToolResult, Line: n, CallID: id, Result: worked})
}

// pollSession is the process session a write_stdin call's arguments
// name, "" when none.
func pollSession(args []byte) string {
	if len(args) > 0 && args[0] == '"' {
		args = []byte(str(args))
	}
	v := field(args, "session_id")
	if len(v) > 0 && v[0] == '"' {
		return str(v)
	}
	return string(v)
}

// runningSession is the session id of an output that says its process
// is still running, "" for any other output.
func runningSession(out []byte) string {
	head := out[:min(len(out), 200)]
	i := bytes.Index(head, codexRunning)
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(head[i+len(codexRunning):], " ")
	j := 0
	for j < len(rest) && j < 20 && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if j == 0 {
		return "?" // running, under an id this reader cannot read
	}
	return string(rest[:j])
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
	if r.ExitCode == 0 || runningSession(raw) != "" {
		return r
	}
	out := str(raw)
	if strings.HasPrefix(out, "{") {
		// Codex before its unified exec (2025) wrapped a shell call's
		// output: {"output": …, "metadata": {"exit_code": …}}
		if f := fields([]byte(out), "output", "metadata"); f[0] != nil && f[1] != nil {
			out = str(f[0])
		}
	}
	if rest, ok := strings.CutPrefix(out, "failed in sandbox: "); ok {
		// Codex of 2025 said so of any command that failed under its
		// sandbox, whatever the cause: what follows is the command's own
		// error output (none, often)
		r.IsError, r.Timeout = true, timedOut(rest)
		r.keep(rest)
		return r
	}
	if strings.HasPrefix(out, "aborted by user") {
		r.Stopped = true // the user interrupted the turn (Esc) while the call ran: no failure of the call's own
		return r
	}
	if r.ExitCode < 0 && len(out) > 200 {
		return r // a long output with no status is a tool's normal answer
	}
	if ok, reason := rejection(out); ok {
		r.IsError, r.Output, r.Rejected = true, reason, true
		return r
	}
	r.Timeout = timedOut(out)
	lower := strings.ToLower(out[:min(len(out), 200)])
	if r.ExitCode < 0 && (strings.HasPrefix(lower, "error") || strings.HasPrefix(lower, "failed") ||
		strings.HasPrefix(lower, "verification failed") || strings.Contains(lower, "aborted")) {
		r.IsError = true
	}
	r.keep(out)
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
		r.keep(firstString(f[6], f[5]))
		s.event(Event{Kind: ToolResult, Line: n, CallID: str(f[2]), Result: r})
	case "patch_apply_end":
		if string(f[4]) == "false" {
			s.event(Event{Kind: ToolResult, Line: n, CallID: str(f[2]), Result: &Result{IsError: true, ExitCode: -1, Output: str(f[5])}})
		}
	}
}
