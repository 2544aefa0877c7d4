package scanner

import (
	"strings"

	"github.com/lessons-dev/lessons"
)

// Kind is what one normalized event is.
type Kind uint8

// The kinds of events every format is normalized into.
const (
	UserText      Kind = iota + 1 // a human prompt (never injected context)
	AssistantText                 // text the agent wrote
	ToolCall                      // the agent called a tool
	ToolResult                    // a tool call's outcome
	Compaction                    // the agent's context was compacted
	Interrupt                     // the user stopped the agent
	Rejection                     // the user refused a tool call
)

var kindNames = [...]string{"", "user", "assistant", "call", "result", "compaction", "interrupt", "rejection"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one step of a session in a format-independent shape.
type Event struct {
	Kind Kind
	// Line is the 1-based line of the record in its file (for a whole-file
	// JSON format, the 1-based index of the message).
	Line int
	// UID identifies the record across copies of a session (a resumed
	// Claude Code session repeats its history under a new file), or is
	// empty when the format has none.
	UID string
	// Text is the user's or agent's text, or a rejection's stated reason.
	Text string
	// CallID links a tool call, its result and a rejection.
	CallID string
	// Call is set for ToolCall events.
	Call *Call
	// Result is set for ToolResult events.
	Result *Result
	// Time is the record's timestamp as the log wrote it (RFC 3339), or
	// "" when the format has none; it is parsed only when needed.
	Time string
	// Guessed marks a Rejection the parser inferred from the shape of
	// the text alone (no harness marker): a tool's own terse error reads
	// the same, so the analyzer checks that a person had time to type it.
	Guessed bool
}

// Call is a tool call. Tool is canonical (lessons.CanonicalTool).
type Call struct {
	Tool    string
	Command string // the shell command of a Bash call
	Path    string // the file a file tool works on
	Input   string // the written text (Write content, Edit new_string, patch)
	// Args are a tool's other short arguments, "key=value" a line: for a
	// tool other than the shell its settings and a digest of its text, for
	// the shell only the settings it switches on (shellSettings); what a
	// retry changed (onerror.go).
	Args string
	// Dir is the working directory the call names (Codex's workdir), ""
	// when it names none or the session's own.
	Dir string
	// Passed holds, a line each, words of the text a tool that is none
	// of the canonical ones (an MCP server's) was given (passedWords): an
	// error that quotes them is about this call's values, which the next
	// call does not share.
	Passed string
	// Sum is a digest of the call's whole input as the agent wrote it
	// (for a tool other than the shell): two calls with the same Sum sent
	// the same input (samecall.go).
	Sum uint64
	// Asks is set for a call that puts a question or a plan to the user
	// (its input holds questions or a plan): refusing it is an answer,
	// not a rejection of something the agent did.
	Asks bool
	// Stops is set for a call that ends a process the agent started: a
	// Ctrl-C or Ctrl-\ written to it through Codex's write_stdin, or
	// Claude Code's kill tool (stopped.go).
	Stops bool
	// Session is the process a Codex write_stdin call writes to or polls
	// (its session_id), "" for other calls.
	Session string
	// Background is set for a shell call the agent's tool does not wait
	// for: Claude Code's Bash with run_in_background, Gemini CLI's
	// run_shell_command with is_background, Codex's exec_command, which
	// hands back a session to poll when the command outlives its
	// yield_time_ms (not its one-shot form, which has a timeout_ms).
	Background bool
}

// Result is a tool call's outcome.
type Result struct {
	IsError bool
	// ExitCode is the command's exit status, or -1 when unknown.
	ExitCode int
	// Output is the error text for a failure; successful results leave
	// it empty, since nothing downstream reads it, but for a run with the
	// session's changes put aside (keep).
	Output string
	// Timeout is set when the tool timed out or was interrupted.
	Timeout bool
	// Stopped is set when the process ended because the agent stopped it
	// on purpose (stopped.go): whatever it printed, the call did not fail.
	Stopped bool
	// Rejected is set when the user refused the call (Codex's "rejected
	// by user"); Output is then the reason the user gave, if any.
	Rejected bool
	// trimmed caches trimError(Output), which several signals read.
	trimmed *string
	// unechoed is set once Output lost the command's own text (unecho).
	unechoed bool
}

// errorText is trimError of the output, computed once.
func (r *Result) errorText() string {
	if r.trimmed == nil {
		t := trimError(r.Output)
		r.trimmed = &t
	}
	return *r.trimmed
}

// maxOutput caps the error text kept from one result: its head and its
// tail, where tools put what went wrong.
const maxOutput = 8 << 10

// keepOutput cuts a long output to its first and last bytes.
func keepOutput(out string) string {
	if len(out) <= maxOutput {
		return out
	}
	h := maxOutput / 2
	for h > 0 && !isRuneStart(out[h]) {
		h--
	}
	t := len(out) - maxOutput/2
	for t < len(out) && !isRuneStart(out[t]) {
		t++
	}
	return out[:h] + "\n" + lessons.CutMark + "\n" + out[t:]
}

// stashRef is what git stash pop prints in every language (keep).
const stashRef = "refs/stash"

// keep keeps a result's output: a failure's, and a successful run's
// that put the session's changes aside and took them back (git stash …
// git stash pop prints refs/stash in every language), which shows how
// the clean checkout fares (asideSaw).
func (r *Result) keep(out string) {
	if r.Failed() || strings.Contains(out, stashRef) {
		r.Output = keepOutput(out)
	}
}

// Failed reports whether the result is a failure: an error, a non-zero
// exit or a timeout, unless the agent stopped the process on purpose.
func (r *Result) Failed() bool { return !r.Stopped && (r.IsError || r.ExitCode > 0 || r.Timeout) }

// Session is what a parser learns about the session it reads.
type Session struct {
	ID      string `json:"id,omitempty"`
	Project string `json:"project,omitempty"`
	// Dir is the directory the session's log says it ran in, kept when
	// Project is a name given to it (replay --as-project) or the project
	// its worktree stands for (lessons.ProjectOf): a retry that went back
	// there ran from the project's root.
	Dir string `json:"dir,omitempty"`
}

// sink receives a parser's events and what it learns of the session.
type sink interface {
	event(e Event)
	session() *Session
}
