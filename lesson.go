// Package lessons holds the domain of the lessons tool: what a lesson is,
// when it applies, where it lives, and how it is checked. It has no YAML,
// git or CLI dependencies, so the hook's small binary can link it.
package lessons

import (
	"encoding/json"
	"fmt"
	"time"
)

// Lesson is one learned rule: what went wrong, how to avoid it, and which
// tool calls should remind the agent of it. Its scope is not a field: it is
// where the file lives.
type Lesson struct {
	ID          string     `json:"id"`
	Slug        string     `json:"slug"`
	Summary     string     `json:"summary"`
	Problem     string     `json:"problem"`
	Solution    string     `json:"solution"`
	Injection   string     `json:"injection,omitempty"`
	Block       bool       `json:"block,omitempty"`
	BlockReason string     `json:"blockReason,omitempty"`
	Decision    Decision   `json:"decision,omitempty"`
	Kind        Kind       `json:"kind,omitempty"`
	Triggers    Trigger    `json:"triggers"`
	Examples    Examples   `json:"examples,omitzero"`
	Priority    int        `json:"priority,omitempty"`
	Confidence  float64    `json:"confidence,omitempty"`
	NeedsReview bool       `json:"needsReview,omitempty"`
	Tags        []string   `json:"tags,omitempty"`
	Source      *Source    `json:"source,omitempty"`
	CreatedAt   *time.Time `json:"createdAt,omitempty"`
	UpdatedAt   *time.Time `json:"updatedAt,omitempty"`
	ContentHash string     `json:"contentHash,omitempty"`
	// Addresses are regexes searched in what a failed call printed that
	// say the failure is the one a pitfall warns about. Replay counts a
	// fire before a failure as addressing it only when one matches; with
	// none, any failure of the call or of the next call of its family
	// counts. The hook never reads it.
	Addresses []string `json:"addresses,omitempty"`
}

// Defaults for fields a hand-written lesson may leave out.
const (
	DefaultPriority   = 5
	DefaultConfidence = 1.0
)

// EffectivePriority is the priority, or DefaultPriority when unset.
func (l *Lesson) EffectivePriority() int {
	if l.Priority == 0 {
		return DefaultPriority
	}
	return l.Priority
}

// EffectiveConfidence is the confidence, or DefaultConfidence when unset:
// a lesson written by a person is trusted.
func (l *Lesson) EffectiveConfidence() float64 {
	if l.Confidence == 0 {
		return DefaultConfidence
	}
	return l.Confidence
}

// AfterOnly reports whether the lesson comes only after a failed call:
// its triggers name the error (triggers.errors), so the hook matches it at
// the call's outcome and never before a call.
func (l *Lesson) AfterOnly() bool { return len(l.Triggers.Errors) > 0 }

// EffectiveDecision is the decision for a blocking lesson: deny unless ask.
func (l *Lesson) EffectiveDecision() Decision {
	if l.Decision == "" {
		return DecisionDeny
	}
	return l.Decision
}

// Kind says how a lesson earns its place, and so how it is judged.
type Kind string

// Kinds of lesson.
const (
	// KindPitfall warns about a call that fails, hangs or misleads. It is
	// judged by precision: how many of its fires come before a failure it
	// addresses.
	KindPitfall Kind = "pitfall"
	// KindHazard guards a call that succeeds and does harm (a force push,
	// a hard reset, a recursive delete). It is judged by what it refused
	// or asked, not by the calls that went fine after it.
	KindHazard Kind = "hazard"
)

// EffectiveKind is the declared kind, else hazard for a blocking lesson
// and pitfall for any other.
func (l *Lesson) EffectiveKind() Kind {
	switch {
	case l.Kind != "":
		return l.Kind
	case l.Block:
		return KindHazard
	}
	return KindPitfall
}

// Decision says what a blocking lesson does with the call it matches.
type Decision string

// Decisions a blocking lesson can take.
const (
	DecisionDeny Decision = "deny" // refuse the call
	DecisionAsk  Decision = "ask"  // let the human decide
)

// Trigger says which tool calls a lesson applies to. Every kind that is set
// must match (commands AND paths AND content); within a kind, any entry may
// match. Unless vetoes a match.
type Trigger struct {
	// Tools are canonical tool names (see CanonicalTools) or glob patterns
	// such as "mcp__github__*". When empty they are implied by the other
	// kinds: commands imply Bash, content implies the writing tools, paths
	// imply the file tools.
	Tools []string `json:"tools,omitempty"`
	// Commands are ECMAScript regexes searched in a shell command.
	Commands []string `json:"commands,omitempty"`
	// Unless are regexes searched in the command and in written content;
	// any match vetoes the lesson.
	Unless []string `json:"unless,omitempty"`
	// Paths are globs on the file path; "**" spans directories, and a glob
	// without a leading "/" may match any trailing part of the path.
	Paths []string `json:"paths,omitempty"`
	// Content are regexes searched in the text an Edit or Write would write.
	Content []string `json:"content,omitempty"`
	// Errors are regexes searched in what a failed call printed. A lesson
	// with errors comes after a failure, at the outcome events, never
	// before a call; the other kinds, when set, must match the failed call.
	Errors []string `json:"errors,omitempty"`
	// Keywords make the lesson relevant to a user's prompt.
	Keywords []string `json:"keywords,omitempty"`
	// SessionStart injects the lesson when a session starts instead.
	SessionStart bool `json:"sessionStart,omitempty"`
	// Foreground limits the lesson to shell calls the agent waits for:
	// not one its tool runs in the background or as a session it polls
	// (ToolCall.Background), where a command that never exits blocks
	// nothing.
	Foreground bool `json:"foreground,omitempty"`
}

// Matchable reports whether the trigger can match a tool call at all.
func (t *Trigger) Matchable() bool {
	return len(t.Tools)+len(t.Commands)+len(t.Paths)+len(t.Content) > 0
}

// Examples are tool calls a lesson must match, and calls it must not.
type Examples struct {
	Match   []ToolCall `json:"match,omitempty"`
	NoMatch []ToolCall `json:"noMatch,omitempty"`
}

// IsZero reports whether there are no examples.
func (e Examples) IsZero() bool { return len(e.Match) == 0 && len(e.NoMatch) == 0 }

// ToolCall is one tool call as lessons see it. In a lesson file a plain
// string stands for a Bash command.
type ToolCall struct {
	Tool    string `json:"tool,omitempty"`
	Command string `json:"command,omitempty"`
	Path    string `json:"path,omitempty"`
	Content string `json:"content,omitempty"`
	// Error is what the call printed when it failed: an example for a
	// lesson with error triggers.
	Error string `json:"error,omitempty"`
	// Background marks a shell call the agent does not wait for: Claude
	// Code's Bash with run_in_background, Gemini CLI's run_shell_command
	// with is_background, Codex's exec_command, which hands back a
	// session to poll once the command outlives its yield_time_ms.
	Background bool `json:"background,omitempty"`
}

// EffectiveTool is the call's tool, Bash when only a command is given.
func (c ToolCall) EffectiveTool() string {
	if c.Tool == "" && c.Command != "" {
		return "Bash"
	}
	return c.Tool
}

// IsPlainCommand reports whether the call is written as a plain string.
func (c ToolCall) IsPlainCommand() bool {
	return (c.Tool == "" || c.Tool == "Bash") && c.Command != "" && c.Path == "" && c.Content == "" && c.Error == "" && !c.Background
}

// UnmarshalJSON accepts a plain string (a Bash command) or an object.
func (c *ToolCall) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = ToolCall{Tool: "Bash", Command: s}
		return nil
	}
	type plain ToolCall
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("example must be a command string or a map of tool, command, path, content: %w", err)
	}
	*c = ToolCall(p)
	if c.Tool == "" && c.Command != "" {
		c.Tool = "Bash"
	}
	return nil
}

// MarshalJSON writes a plain Bash command as a string.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	if c.IsPlainCommand() {
		return json.Marshal(c.Command)
	}
	type plain ToolCall
	return json.Marshal(plain(c))
}

// Source records where a captured lesson came from.
type Source struct {
	Sessions    int    `json:"sessions,omitempty"`
	Occurrences int    `json:"occurrences,omitempty"`
	Agent       string `json:"agent,omitempty"`
}
