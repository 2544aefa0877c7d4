package engine

import (
	"encoding/json"
	"io"

	lessons "github.com/lessons-dev/lessons"
)

// Platform formats the hook's answers for one agent. Every answer is one
// JSON object; a platform decides its shape.
type Platform interface {
	// Context answers an event with text for the agent to read.
	Context(event, text string) any
	// Decide answers a PreToolUse call with a permission decision.
	Decide(d lessons.Decision, reason string) any
}

// Platforms are the agents `lessons hook --platform` knows, by name.
var Platforms = map[string]Platform{
	"claude": claudePlatform{},
	"codex":  codexPlatform{},
}

// DefaultPlatform is the platform used when none is named.
const DefaultPlatform = "claude"

// hookOutput is Claude Code's answer shape, which Codex shares. It has no
// other top-level key: Codex rejects unknown ones.
type hookOutput struct {
	Specific *specificOutput `json:"hookSpecificOutput,omitempty"`
}

// specificOutput always names its event: Claude Code ignores output
// without hookEventName.
type specificOutput struct {
	HookEventName            string `json:"hookEventName"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
}

// noOutput is the empty answer: go on as if the hook were not there.
var noOutput = hookOutput{}

type claudePlatform struct{}

func (claudePlatform) Context(event, text string) any {
	return hookOutput{&specificOutput{HookEventName: event, AdditionalContext: text}}
}

func (claudePlatform) Decide(d lessons.Decision, reason string) any {
	return hookOutput{&specificOutput{
		HookEventName: "PreToolUse", PermissionDecision: string(d), PermissionDecisionReason: reason,
	}}
}

// codexPlatform is Claude Code's shape, except that Codex does not
// implement "ask" (it would let the call run), so asking denies with a
// reason that says a human should approve it.
type codexPlatform struct{ claudePlatform }

func (p codexPlatform) Decide(d lessons.Decision, reason string) any {
	if d == lessons.DecisionAsk {
		return p.claudePlatform.Decide(lessons.DecisionDeny,
			reason+" (This call needs a human's approval: ask the user to run it or to confirm.)")
	}
	return p.claudePlatform.Decide(d, reason)
}

// writeOutput writes one answer as a single JSON line, leaving <, > and &
// readable for the HTML comment in the text.
func writeOutput(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
