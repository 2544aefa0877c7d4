package scanner

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/lessons-dev/lessons"
)

// Claude Code transcripts: one JSON record per line, tool results carried
// by "user" records and paired with the assistant's tool_use by id.

var ccToolResult = []byte(`"tool_result"`)

// refsStash is stashRef's bytes (Result.keep).
var refsStash = []byte(stashRef)

// interruptedV1 is the whole result of a call the user stopped, as
// Claude Code 1.0 logged it (later versions: "[Request interrupted by
// user …]").
const interruptedV1 = "Interrupted by user"

// claudeLine turns one Claude Code record into events.
func claudeLine(b []byte, n int, s sink) {
	// Most bytes are successful tool output: their ids are all that
	// matters, and a search for the fields finds them without a decode;
	// but for a run with the session's changes put aside (Result.keep).
	if bytes.Contains(b, ccToolResult) && !hasError(b) && !bytes.Contains(b, []byte(`"progress"`)) && !bytes.Contains(b, refsStash) {
		claudeSuccesses(b, n, s)
		return
	}
	f := fields(b, "type", "message", "uuid", "sessionId", "cwd", "isMeta", "isCompactSummary", "subtype", "timestamp")
	sess := s.session()
	if sess.ID == "" && f[3] != nil {
		sess.ID = str(f[3])
	}
	if sess.Project == "" && f[4] != nil {
		sess.Project = str(f[4])
	}
	uid := str(f[2])
	switch str(f[0]) {
	case "user":
		if isTrue(f[6]) {
			s.event(Event{Kind: Compaction, Line: n, UID: uid})
			return
		}
		claudeUser(f[1], n, uid, str(f[8]), isTrue(f[5]), s)
	case "assistant":
		claudeAssistant(f[1], n, uid, str(f[8]), s)
	case "system":
		if str(f[7]) == "compact_boundary" {
			s.event(Event{Kind: Compaction, Line: n, UID: uid})
		}
	}
}

// hasError reports whether a record holds "is_error": true anywhere.
func hasError(b []byte) bool {
	found := false
	eachKeyValue(b, "is_error", func(v []byte) { found = found || isTrue(v) })
	return found
}

func claudeSuccesses(b []byte, n int, s sink) {
	eachKeyValue(b, "tool_use_id", func(v []byte) {
		if id := str(v); id != "" {
			s.event(Event{Kind: ToolResult, Line: n, CallID: id, Result: &Result{ExitCode: -1}})
		}
	})
}

func claudeUser(msg []byte, n int, uid, at string, meta bool, s sink) {
	content := field(msg, "content")
	if len(content) == 0 {
		return
	}
	if content[0] == '"' {
		if !meta {
			humanText(str(content), n, uid, s)
		}
		return
	}
	eachElem(content, func(block []byte) {
		f := fields(block, "type", "text", "tool_use_id", "content", "is_error")
		switch str(f[0]) {
		case "text":
			if !meta {
				humanText(str(f[1]), n, uid, s)
			}
		case "tool_result":
			id := str(f[2])
			out := text(f[3])
			if ok, reason := rejection(out); ok {
				s.event(Event{Kind: Rejection, Line: n, UID: uid, CallID: id, Text: reason})
				return
			}
			if strings.HasPrefix(out, "[Request interrupted by user") || out == interruptedV1 {
				s.event(Event{Kind: Interrupt, Line: n, UID: uid, CallID: id})
				return
			}
			r := &Result{IsError: isTrue(f[4]), ExitCode: exitCode([]byte(out)), Timeout: timedOut(out)}
			if r.IsError && r.ExitCode < 0 && userFeedback(out) {
				// Claude Code 2.0 put what the user typed at the
				// permission prompt in place of the result; a tool's
				// terse error reads the same, and the analyzer tells
				// them apart by the time it took (typedByUser).
				s.event(Event{Kind: Rejection, Line: n, UID: uid, CallID: id, Text: strings.TrimSpace(out), Time: at, Guessed: true})
				return
			}
			if r.IsError && lessons.CwdRecordFailed(out) {
				r.IsError, r.ExitCode = false, 0 // the command succeeded; Claude Code's record of its directory failed after it
			}
			r.keep(out)
			s.event(Event{Kind: ToolResult, Line: n, UID: uid, CallID: id, Result: r})
		}
	})
}

func claudeAssistant(msg []byte, n int, uid, at string, s sink) {
	eachElem(field(msg, "content"), func(block []byte) {
		f := fields(block, "type", "text", "id", "name", "input")
		switch str(f[0]) {
		case "text":
			s.event(Event{Kind: AssistantText, Line: n, UID: uid, Text: str(f[1])})
		case "tool_use":
			s.event(Event{Kind: ToolCall, Line: n, UID: uid, CallID: str(f[2]), Call: newCall(str(f[3]), f[4]), Time: at})
		}
	})
}

// injectedPrefixes start user-role text that no human typed: harness
// wrappers, hook output, reminders and continuation summaries.
var injectedPrefixes = []string{
	"<command-", "<local-command", "<system-reminder>", "<user-prompt-submit-hook>",
	"<environment_context>", "<user_instructions>", "<permissions", "<turn_aborted>",
	"<bash-", "<task-notification>", "<ide_", "<session-start-hook>",
	"Caveat: The messages below", "This session is being continued from a previous conversation",
	"# AGENTS.md", "# Context from my IDE",
}

// humanText emits user text, or an interrupt, and drops injected text.
func humanText(t string, n int, uid string, s sink) {
	t = strings.TrimSpace(t)
	if t == "" {
		return
	}
	if strings.HasPrefix(t, "[Request interrupted by user") {
		s.event(Event{Kind: Interrupt, Line: n, UID: uid})
		return
	}
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(t, p) {
			return
		}
	}
	s.event(Event{Kind: UserText, Line: n, UID: uid, Text: t})
}

var toolSpeak = regexp.MustCompile(`(?i)(error|fail|not found|no such|denied|invalid|unknown|cannot|can't|unable|refused|missing|unexpected|traceback|exception|panic|usage|not allowed|blocked|timed out|approval|permission|requested|not running|status code|warn|found|match|has not been|read it first|string to replace|no such tool|^\S*[/\\:<=\[{(])`)

// userFeedback reports whether an error result reads as a person's words
// rather than a tool's: a short plain sentence with no error vocabulary.
func userFeedback(out string) bool {
	out = strings.TrimSpace(out)
	return len(out) >= 8 && len(out) <= 500 && strings.Count(out, "\n") <= 3 &&
		strings.Contains(out, " ") && !toolSpeak.MatchString(out)
}
