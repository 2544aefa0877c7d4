package scanner

import (
	"time"
	"unicode/utf8"
)

// A tool call the user refused is a lesson only when the refusal is the
// user's: Claude Code 2.0 wrote what the user typed at the permission
// prompt in place of the tool's result, with no marker, so a terse error
// of the tool itself ("File does not exist.") reads the same. What tells
// them apart is time: a person has to read the prompt and type the
// words, a tool answers at once. And a call that asks the user something
// (a question, a plan to approve) is answered, not refused, whatever the
// answer says.

// Human typing bounds: the least time to read a prompt and start
// answering, and a fast typist's time per character (about 120 words a
// minute).
const (
	readPrompt  = 2 * time.Second
	typePerChar = 100 * time.Millisecond
)

// typedByUser reports whether the text of a guessed refusal of call rec
// can have been typed by a person: the result came at least readPrompt
// plus typePerChar per character after the call. When either time is
// unknown it cannot tell, and trusts the text's shape.
func typedByUser(rec *callRec, e Event) bool {
	if !e.Guessed || rec.at == "" || e.Time == "" {
		return true
	}
	t0, err0 := time.Parse(time.RFC3339Nano, rec.at)
	t1, err1 := time.Parse(time.RFC3339Nano, e.Time)
	if err0 != nil || err1 != nil {
		return true
	}
	return t1.Sub(t0) >= readPrompt+time.Duration(utf8.RuneCountInString(e.Text))*typePerChar
}

// toolError turns a guessed refusal that came too fast for a person into
// the failed result it is, and reports whether it did.
func (a *analyzer) toolError(e Event) (Event, bool) {
	rec := a.calls[e.CallID]
	if e.Kind != Rejection || rec == nil || typedByUser(rec, e) {
		return e, false
	}
	return Event{Kind: ToolResult, Line: e.Line, UID: e.UID, CallID: e.CallID, Time: e.Time,
		Result: &Result{IsError: true, ExitCode: -1, Output: keepOutput(e.Text)}}, true
}
