package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// Antigravity CLI (agy), Gemini CLI's successor, sends its own payloads:
// camelCase, the call under toolCall with PascalCase argument keys
// (toolCall.args.CommandLine, TargetFile), the session as conversationId,
// the project as workspacePaths, and no event name: its hooks.json names
// the event on the command line (lessons hook --event PreToolUse); a
// payload with a toolCall and no --event is taken as PreToolUse.
//
// What agy reads back, from its documentation and from integrators who
// ran agy 1.0 to 1.2: PreToolUse is a permission gate whose answer must
// carry a decision, and an empty {} denies the call (its result message
// defaults allow_tool to false), so "nothing to say" is an explicit
// allow; PostToolUse, PostInvocation and Stop take {}; only
// PreInvocation, before each model call, can add text
// ({"injectSteps":[{"ephemeralMessage":…}]}).

// antigravityFields are Antigravity CLI's payload fields, embedded in
// Payload.
type antigravityFields struct {
	ConversationID string           `json:"conversationId"`
	WorkspacePaths []string         `json:"workspacePaths"`
	ToolCall       *antigravityCall `json:"toolCall"`
}

type antigravityCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// isAntigravity reports whether the payload has Antigravity CLI's shape.
func (p *Payload) isAntigravity() bool {
	return p.ToolCall != nil || p.ConversationID != "" || len(p.WorkspacePaths) > 0
}

// UnmarshalJSON decodes a payload, and fills its Claude Code fields from
// Antigravity CLI's when it has their shape: the session, the project,
// the tool and its input, whose keys are renamed to the ones Call reads.
func (p *Payload) UnmarshalJSON(data []byte) error {
	type plain Payload
	if err := json.Unmarshal(data, (*plain)(p)); err != nil {
		return err
	}
	if !p.isAntigravity() {
		return nil
	}
	if p.SessionID == "" {
		p.SessionID = p.ConversationID
	}
	if p.Cwd == "" && len(p.WorkspacePaths) > 0 {
		p.Cwd = p.WorkspacePaths[0]
	}
	if p.ToolCall == nil {
		return nil
	}
	p.ToolName = p.ToolCall.Name
	in, err := antigravityInput(p.ToolCall.Args)
	if err != nil {
		return fmt.Errorf("toolCall.args of %s: %w", p.ToolName, err)
	}
	p.ToolInput = in
	return nil
}

// antigravityArg maps Antigravity CLI's argument keys, lower-cased (agy
// writes them in PascalCase, some integrators saw camelCase), to the
// tool_input keys Call reads, "" for the others. A switch, not a map
// built at init.
func antigravityArg(key string) string {
	switch key {
	case "commandline": // run_command
		return "command"
	case "targetfile", "absolutepath": // write_to_file, replace_file_content, multi_replace_file_content; view_file
		return "file_path"
	case "searchpath", "directorypath", "searchdirectory": // grep_search, list_dir, find_by_name
		return "path"
	case "codecontent": // write_to_file
		return "content"
	case "replacementcontent": // replace_file_content
		return "new_string"
	}
	return ""
}

// antigravityInput renames an Antigravity CLI tool call's arguments;
// replace_file_content's and multi_replace_file_content's
// ReplacementChunks become edits, whose new text content triggers see.
func antigravityInput(args json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 || string(args) == "null" {
		return nil, nil
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(in)) { // sorted: the first of two synonyms wins, always the same
		v, key := in[k], strings.ToLower(k)
		if key == "replacementchunks" {
			var chunks []map[string]json.RawMessage
			if json.Unmarshal(v, &chunks) != nil {
				continue
			}
			var edits []map[string]json.RawMessage
			for _, c := range chunks {
				for ck, cv := range c {
					if strings.EqualFold(ck, "ReplacementContent") {
						edits = append(edits, map[string]json.RawMessage{"new_string": cv})
					}
				}
			}
			out["edits"] = edits
			continue
		}
		if name := antigravityArg(key); name != "" {
			if _, taken := out[name]; !taken {
				out[name] = v
			}
		}
	}
	return json.Marshal(out)
}

// antigravityEventOf maps Antigravity CLI's events, lower-cased, to the
// hook's; agy matches event names case-insensitively, and so does the
// hook. A switch, not a map built at init.
func antigravityEventOf(lower string) (string, bool) {
	switch lower {
	case "pretooluse":
		return "PreToolUse", true
	case "posttooluse":
		return "PostToolUse", true
	case "preinvocation":
		return "PreInvocation", true
	}
	return "", false
}

// antigravityPlatform answers Antigravity CLI. A block carries both of
// agy's documented forms, which agree: {"allowTool":false,"denyReason"}
// (the migration guide, agy 1.0) and {"decision":"deny","reason"} (what
// integrators saw enforced). An "ask" denies too: agy 1.0 cannot ask,
// and the two forms would disagree. A call's lessons wait for the next
// PreInvocation, the only event whose text agy reads: the platform
// answers PreToolUse, PostToolUse and PreInvocation itself (answerOwn).
// What nothing tells apart from its predecessor's (how a resumed
// conversation keeps hook text) it takes from Gemini CLI's platform.
type antigravityPlatform struct{ geminiPlatform }

func (antigravityPlatform) Event(name string) string {
	if e, ok := antigravityEventOf(strings.ToLower(name)); ok {
		return e
	}
	return name
}

func (antigravityPlatform) ToolLessonsAt() string { return "PreInvocation" }

type antigravityOutput struct {
	AllowTool   *bool             `json:"allowTool,omitempty"`
	DenyReason  string            `json:"denyReason,omitempty"`
	Decision    string            `json:"decision,omitempty"`
	Reason      string            `json:"reason,omitempty"`
	InjectSteps []antigravityStep `json:"injectSteps,omitempty"`
}

type antigravityStep struct {
	EphemeralMessage string `json:"ephemeralMessage"`
}

// Context: Gemini CLI's successor may escape text as Gemini did; the
// injection comment becomes a plain line, as for Gemini.
func (antigravityPlatform) Context(event, text string) any {
	text = plainInjectionLine(text)
	return antigravityOutput{InjectSteps: []antigravityStep{{EphemeralMessage: text}}}
}

func (antigravityPlatform) Decide(d lessons.Decision, reason string) any {
	_, reason = denyOnly(d, reason)
	deny := false
	return antigravityOutput{AllowTool: &deny, DenyReason: reason, Decision: string(lessons.DecisionDeny), Reason: reason}
}

// Silence is the answer that lets the call or the turn go on: at
// PreToolUse (or an event the hook was not told) an explicit allow, since
// agy fails closed on a missing decision; integrators who tested agy
// 1.1.x report that allow does not skip its own review prompt, so agy's
// permission rules stay in charge. {} elsewhere.
func (p antigravityPlatform) Silence(event string) any {
	switch p.Event(event) {
	case "PreToolUse", "":
		allow := true
		return antigravityOutput{AllowTool: &allow, Decision: "allow"}
	}
	return noOutput
}

// silencer is a platform whose "nothing to say" is not {}.
type silencer interface {
	Silence(event string) any
}

// SilenceFor is the JSON line that lets the agent go on, for a platform
// (nil: recognised later) and an event: what the hook's watchdog writes
// when the hook has not answered in time.
func SilenceFor(p Platform, event string) []byte {
	if s, ok := p.(silencer); ok {
		if b, err := json.Marshal(s.Silence(event)); err == nil {
			return append(b, '\n')
		}
	}
	return []byte("{}\n")
}

// plainInjectionLine turns the HTML comment that ends injected text into
// a bracketed line, as for Gemini CLI, whose successor may escape < and >
// the same way.
func plainInjectionLine(text string) string {
	const open, end = "\n<!-- lessons injected: ", " -->"
	if i := strings.LastIndex(text, open); i >= 0 && strings.HasSuffix(text, end) {
		return text[:i] + "\n[lessons injected: " + strings.TrimSuffix(text[i+len(open):], end) + "]"
	}
	return text
}
