package scanner

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"unicode"
)

// Gemini CLI chats: a legacy .json file holding one object with a
// "messages" array (rewritten whole on every change), or the newer .jsonl
// with a metadata line, one message per line, {"$set": …} updates and
// {"$rewindTo": id} markers that drop a message and all after it.

var geminiRewind = []byte(`"$rewindTo"`)

// geminiRewinds reads a .jsonl chat for rewind markers and returns, for
// each message id a rewind drops, the line of the marker that drops it.
func geminiRewinds(r io.Reader, maxLine int) map[string]int {
	var out map[string]int
	lr := newLineReader(r, 0, 0, maxLine)
	defer lr.release()
	for {
		b, _, _, err := lr.next()
		if err != nil {
			return out
		}
		if bytes.Contains(b, geminiRewind) {
			if id := str(field(b, "$rewindTo")); id != "" {
				if out == nil {
					out = map[string]int{}
				}
				out[id] = lr.line
			}
		}
	}
}

// geminiLines returns the line function for a .jsonl chat, which skips the
// messages a later rewind dropped.
func geminiLines(rewinds map[string]int) func(b []byte, n int, s sink) {
	skipUntil := 0
	return func(b []byte, n int, s sink) {
		if n <= skipUntil {
			return
		}
		f := fields(b, "id", "type", "sessionId", "$set", "$rewindTo")
		if f[3] != nil || f[4] != nil {
			return
		}
		if end, ok := rewinds[str(f[0])]; ok && end > n {
			skipUntil = end
			return
		}
		if f[1] == nil { // the metadata line
			if sess := s.session(); sess.ID == "" {
				sess.ID = str(f[2])
			}
			return
		}
		geminiMessage(b, n, s)
	}
}

// geminiJSON reads a whole legacy chat object; messages are numbered from
// 1 in place of lines.
func geminiJSON(b []byte, s sink) {
	f := fields(b, "sessionId", "messages")
	s.session().ID = str(f[0])
	n := 0
	eachElem(f[1], func(m []byte) {
		n++
		geminiMessage(m, n, s)
	})
}

func geminiMessage(b []byte, n int, s sink) {
	f := fields(b, "id", "type", "content", "toolCalls")
	uid := str(f[0])
	switch str(f[1]) {
	case "user":
		humanText(text(f[2]), n, uid, s)
	case "gemini", "model", "assistant":
		if t := text(f[2]); t != "" {
			s.event(Event{Kind: AssistantText, Line: n, UID: uid, Text: t})
		}
		eachElem(f[3], func(tc []byte) { geminiToolCall(tc, n, s) })
	case "info":
		if strings.Contains(strings.ToLower(text(f[2])), "request cancelled") {
			s.event(Event{Kind: Interrupt, Line: n, UID: uid})
		}
	}
}

func geminiToolCall(b []byte, n int, s sink) {
	f := fields(b, "id", "name", "args", "result", "status", "error", "resultDisplay")
	id := str(f[0])
	s.event(Event{Kind: ToolCall, Line: n, UID: id, CallID: id, Call: newCall(str(f[1]), f[2])})
	out := str(f[5])
	eachElem(f[3], func(part []byte) {
		resp := field(field(part, "functionResponse"), "response")
		rf := fields(resp, "output", "error")
		if rf[1] != nil && out == "" {
			out = firstString(rf[1])
		} else if rf[0] != nil && out == "" {
			out = firstString(rf[0])
		}
	})
	status := str(f[4])
	if status == "cancelled" {
		s.event(Event{Kind: Interrupt, Line: n, CallID: id})
		return
	}
	r := &Result{IsError: status == "error", ExitCode: -1, Timeout: timedOut(out)}
	if i := strings.LastIndex(out, "Exit Code: "); i >= 0 {
		r.ExitCode = exitCode([]byte(out[i:]))
	}
	r.keep(out)
	s.event(Event{Kind: ToolResult, Line: n, CallID: id, Result: r})
}

// geminiProjectFile is the file Gemini CLI (0.61) writes beside a
// project's chats folder, ~/.gemini/tmp/<name>/.project_root, holding the
// project's root directory: the chats themselves name only its hash.
const geminiProjectFile = ".project_root"

// geminiProject sets the session's project, for a Gemini CLI chat at path
// (its records name none), to the root its .project_root holds; it sets
// nothing for a log of another format, or when that file is missing or
// is not one absolute path free of control characters.
func geminiProject(format Format, path string, s sink) {
	dir := filepath.Dir(path)
	if format != FormatGeminiJSONL && format != FormatGeminiJSON || filepath.Base(dir) != "chats" {
		return
	}
	b, err := readCapped(filepath.Join(filepath.Dir(dir), geminiProjectFile), 4096)
	if err != nil {
		return
	}
	root := strings.TrimSpace(string(b))
	if !filepath.IsAbs(root) || strings.ContainsFunc(root, unicode.IsControl) {
		return
	}
	s.session().Project = root
}
