package replay

import (
	"bufio"
	"encoding/json"
	"io"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
)

// TraceCall is one tool call of a replay as `--trace FILE` writes it:
// one JSON object per line, in replay order (sessions oldest first, each
// session's calls and typed prompts in file order). docs/replay.md
// describes every field, schemas/replay-trace.schema.json is its schema,
// and every figure of the report can be recounted from these lines.
type TraceCall struct {
	// Kind is "call": it tells a call's line from a prompt's.
	Kind string `json:"kind"`
	// File is the log as read (path#session-id for an opencode
	// database), Session the session's id, Project its project ("" when
	// the log names none), Agent the agent that wrote it.
	File    string `json:"file"`
	Session string `json:"session"`
	Project string `json:"project"`
	Agent   string `json:"agent"`
	// Index is the call's 0-based position among the file's tool calls,
	// in file order; Line its line in the file.
	Index int    `json:"index"`
	Line  int    `json:"line"`
	Tool  string `json:"tool"`
	// Command is the shell command, or the path for a file tool, cut to
	// maxTraceCommand bytes; the trace writes it with its secrets redacted.
	Command string `json:"command"`
	// Outcome is failed, rejected, fine or unknown (no result logged).
	Outcome string `json:"outcome"`
	// Family is the call's command family and Class its error class (""
	// unless it failed or was rejected); a failure's key is
	// "Family | Class".
	Family string `json:"family"`
	Class  string `json:"class"`
	// Repeat: the call failed, and a failure with the same key happened
	// in an earlier session of the same project.
	Repeat bool `json:"repeat"`
	// Copy: the call was copied from a log replayed earlier (a resumed
	// or forked session), with its id: not replayed, and counted nowhere.
	Copy bool `json:"copy,omitempty"`
	// Matched are the lessons whose triggers matched the call, whether
	// or not they fired.
	Matched []string `json:"matched"`
	// Fired are the lessons that reached the agent at this call.
	Fired []TraceFire `json:"fired"`
	// InjectedBytes is the size of the text that carried the lessons
	// fired before the call (0 when none was injected).
	InjectedBytes int `json:"injectedBytes"`
	// Verdict, for a failed call a learned lesson fired on: prevented,
	// shortened or unrelated; else "".
	Verdict string `json:"verdict"`
}

// TracePrompt is one typed prompt of a replay as `--trace FILE` writes
// it, on the line before the first call that came after it. It holds the
// prompt's size, never its text: prompts may hold secrets.
type TracePrompt struct {
	// Kind is "prompt".
	Kind    string `json:"kind"`
	File    string `json:"file"`
	Session string `json:"session"`
	Project string `json:"project"`
	Agent   string `json:"agent"`
	// Index is the prompt's 0-based position among the session's typed
	// prompts; Line its line in the file; Before the index of the call
	// it came before (the number of calls before it).
	Index  int `json:"index"`
	Line   int `json:"line"`
	Before int `json:"before"`
	// Bytes is the prompt's length in bytes, as replayed (cut at 64 KiB).
	Bytes int `json:"bytes"`
	// Fired are the lessons injected at the prompt, each at "prompt".
	Fired []TraceFire `json:"fired"`
	// InjectedBytes is the size of the text that carried them.
	InjectedBytes int `json:"injectedBytes"`
}

// TraceLesson is a lesson --learn learned, on the line after the
// session whose end gave it its form: one line when it is first
// learned and one each time its form changes (live, confidence, scope,
// summary or error triggers), so a reader can tell which lessons were
// live before any call and why one was not.
type TraceLesson struct {
	// Kind is "lesson".
	Kind string `json:"kind"`
	// File and Session are the session after which it took this form.
	File    string `json:"file"`
	Session string `json:"session"`
	Slug    string `json:"slug"`
	// Live: at or above minConfidence and not folded into another
	// lesson; only a live lesson fires.
	Live       bool    `json:"live"`
	Confidence float64 `json:"confidence"`
	// Project is the project it applies to, "" for everywhere.
	Project  string          `json:"project"`
	Summary  string          `json:"summary"`
	Triggers lessons.Trigger `json:"triggers"`
	// Keys are the failure keys ("Family | Class") of the failed calls
	// it was learned from, sorted.
	Keys []string `json:"keys"`
}

// Kinds of trace line.
const (
	traceKindCall   = "call"
	traceKindPrompt = "prompt"
	traceKindLesson = "lesson"
)

// TraceFire is a lesson that reached the agent at a call.
type TraceFire struct {
	Slug string `json:"slug"`
	// Provisional marks a lesson --learn learned from earlier sessions.
	Provisional bool `json:"provisional"`
	// Kind is pitfall or hazard.
	Kind string `json:"kind"`
	// At is "before" (injected before the call ran, or the call was
	// refused), "after" (it reached the agent with the call's failure:
	// its error triggers matched what the call printed) or "prompt"
	// (injected at a typed prompt).
	At string `json:"at"`
	// Refused is deny or ask when the lesson refused the call.
	Refused string `json:"refused,omitempty"`
	// Addresses: the fire came before a failure the lesson addresses
	// (see addresses).
	Addresses bool `json:"addresses"`
	// LearnedFrom are the failed calls a learned lesson was learned
	// from, as known when it fired (at most maxLearnedFrom); [] for
	// other lessons.
	LearnedFrom []CallRef `json:"learnedFrom"`
}

// CallRef names a call of the trace: its file and index.
type CallRef struct {
	File  string `json:"file"`
	Index int    `json:"index"`
}

// Verdicts of a failed call a learned lesson fired on.
const (
	// VerdictPrevented: a lesson learned from a failure with this
	// call's key fired before it.
	VerdictPrevented = "prevented"
	// VerdictShortened: no such lesson fired before it, one reached the
	// agent with its failure.
	VerdictShortened = "shortened"
	// VerdictUnrelated: learned lessons fired before it, none learned
	// from its key.
	VerdictUnrelated = "unrelated"
)

// maxTraceCommand caps a command's bytes in the trace: heredocs make
// some commands hundreds of kilobytes long.
const maxTraceCommand = 2000

// traceWriter writes TraceCalls as JSON lines.
type traceWriter struct {
	w   *bufio.Writer
	enc *json.Encoder
}

func newTraceWriter(w io.Writer) *traceWriter {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &traceWriter{w: bw, enc: enc}
}

// write writes a session's calls and prompts, one line each, each
// prompt before the first call that came after it; Encode escapes
// control characters and replaces invalid UTF-8, so each line stays
// valid JSON whatever the log held.
func (t *traceWriter) write(calls []TraceCall, prompts []TracePrompt) error {
	p := 0
	for i := range len(calls) + 1 {
		for ; p < len(prompts) && (prompts[p].Before <= i || i == len(calls)); p++ {
			if err := t.enc.Encode(&prompts[p]); err != nil {
				return err
			}
		}
		if i < len(calls) {
			c := calls[i]
			c.Command = scanner.Redact(c.Command) // a log's secrets are stored nowhere, a trace neither
			if err := t.enc.Encode(&c); err != nil {
				return err
			}
		}
	}
	return nil
}

// lessons writes the learned lessons a session boundary changed.
func (t *traceWriter) lessons(ls []TraceLesson) error {
	for i := range ls {
		if err := t.enc.Encode(&ls[i]); err != nil {
			return err
		}
	}
	return nil
}

func (t *traceWriter) flush() error { return t.w.Flush() }
