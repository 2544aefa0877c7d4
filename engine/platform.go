package engine

import (
	"encoding/json"
	"io"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// Platform adapts the hook to one agent: the names of its events, when
// it reads a tool call's lessons, and the shape of its answers. Every
// answer is one JSON object.
type Platform interface {
	// Event maps the agent's event name to the hook's own: PreToolUse,
	// PostToolUse, SessionStart, SubagentStart or UserPromptSubmit. Other
	// names pass through, and the hook has nothing to say on them.
	Event(name string) string
	// ToolLessonsAt is the hook event at which the agent reads the
	// lessons a tool call brings up: PreToolUse when it reads text added
	// before the call, PostToolUse when only text added to the call's
	// result. Blocks are always answered before the call.
	ToolLessonsAt() string
	// Context answers an event, named as the agent names it, with text
	// for the agent to read.
	Context(event, text string) any
	// Decide refuses a tool call, or asks the user about it.
	Decide(d lessons.Decision, reason string) any
	// ResumeKeeps says which text hooks added before a resumed session
	// still holds: what it holds is not repeated, what it lost comes
	// again.
	ResumeKeeps() Resumed
}

// Resumed is what a resumed session still holds of the text hooks added
// to it, as measured on each agent by the real-agent suite
// (cmd/lessons-cli/internal/agents/realagents, checkResume).
type Resumed struct {
	// Start is the session-start text: the protocol and session lessons.
	Start bool
	// Calls is the text added at tool calls and prompts.
	Calls bool
}

// Platforms are the agents `lessons hook --platform` knows, by name.
var Platforms = map[string]Platform{
	"claude":      claudePlatform{},
	"codex":       codexPlatform{},
	"gemini":      geminiPlatform{},
	"opencode":    opencodePlatform{},
	"antigravity": antigravityPlatform{},
}

// DefaultPlatform is the platform used when none is named or recognised.
const DefaultPlatform = "claude"

// PlatformEnv names the platform when the hook's command line does not.
const PlatformEnv = "LESSONS_AGENT_PLATFORM"

// ChoosePlatform is the platform a hook runs for: the one named by
// --platform (flag), else by $LESSONS_AGENT_PLATFORM, else nil, which
// lets the hook recognise it from the payload. An unknown name is
// returned as unknown, with a nil platform.
func ChoosePlatform(flag string, getenv func(string) string) (p Platform, unknown string) {
	name := flag
	if name == "" {
		name = getenv(PlatformEnv)
	}
	if name == "" {
		return nil, ""
	}
	if p := Platforms[name]; p != nil {
		return p, ""
	}
	return nil, name
}

// PlatformNames lists the known platforms for messages.
const PlatformNames = "antigravity, claude, codex, gemini, opencode"

// Recognise names the platform a payload comes from by its shape:
// Antigravity CLI's is camelCase (toolCall, conversationId), Gemini CLI
// stamps a timestamp and names its events and tools its own way, Codex
// sends a turn_id; anything else is Claude Code's.
func (p *Payload) Recognise() string {
	_, geminiEvent := geminiEventOf(p.HookEventName)
	switch {
	case p.isAntigravity():
		return "antigravity"
	case geminiEvent && p.HookEventName != "SessionStart", p.Timestamp != "", isGeminiTool(p.ToolName):
		return "gemini"
	case p.TurnID != "":
		return "codex"
	}
	return DefaultPlatform
}

func isGeminiTool(name string) bool {
	switch name {
	case "run_shell_command", "read_file", "read_many_files", "write_file", "replace",
		"glob", "grep_search", "search_file_content", "list_directory", "web_fetch", "google_web_search", "invoke_agent":
		return true
	}
	return false
}

// hookOutput is Claude Code's answer shape, which Codex and the opencode
// plugin share. It has no other top-level key: Codex rejects unknown ones.
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
	// ToolInput replaces arguments of the call (Gemini CLI's BeforeTool).
	ToolInput map[string]any `json:"tool_input,omitempty"`
}

// noOutput is the empty answer, {} for every agent: go on as if the hook
// were not there.
var noOutput = hookOutput{}

// askNote ends the reason of an "ask" on agents that cannot ask the
// user: they deny instead.
const askNote = " (This call needs a human's approval: ask the user to run it or to confirm.)"

type claudePlatform struct{}

func (claudePlatform) Event(name string) string { return name }

// ResumeKeeps: claude -c replays the text every hook added to the
// conversation it resumes, SessionStart's included (measured on 2.1.331;
// 2.1.197 dropped it).
func (claudePlatform) ResumeKeeps() Resumed  { return Resumed{Start: true, Calls: true} }
func (claudePlatform) ToolLessonsAt() string { return "PreToolUse" }

func (claudePlatform) Context(event, text string) any {
	return hookOutput{&specificOutput{HookEventName: event, AdditionalContext: text}}
}

// claudeAskNote ends the reason of an "ask": in a non-interactive run
// (claude -p) Claude Code turns the ask into a denial and the model reads
// only the reason, so it must learn there that a person can approve.
const claudeAskNote = " (A person must approve this call. If nobody can, do not retry it another way: tell the user.)"

func (claudePlatform) Decide(d lessons.Decision, reason string) any {
	if d == lessons.DecisionAsk {
		reason += claudeAskNote
	}
	return hookOutput{&specificOutput{
		HookEventName: "PreToolUse", PermissionDecision: string(d), PermissionDecisionReason: reason,
	}}
}

// denyOnly turns an "ask" into a denial that says a human must approve.
func denyOnly(d lessons.Decision, reason string) (lessons.Decision, string) {
	if d == lessons.DecisionAsk {
		return lessons.DecisionDeny, reason + askNote
	}
	return d, reason
}

// codexPlatform is Claude Code's shape, but Codex does not implement
// "ask" (it would let the call run). Codex 0.169.0 gives the model a
// PreToolUse additionalContext as a developer message in the same turn,
// right after the call (the real-agent suite checks it).
type codexPlatform struct{ claudePlatform }

// ResumeKeeps: a resumed Codex session replays its developer messages,
// hook text included; the protocol piled up once per resume (0.169.0).
func (codexPlatform) ResumeKeeps() Resumed { return Resumed{Start: true, Calls: true} }

func (p codexPlatform) Decide(d lessons.Decision, reason string) any {
	return p.claudePlatform.Decide(denyOnly(d, reason))
}

// opencodePlatform answers the lessons opencode plugin, which sends
// Claude Code's events and reads Claude Code's answers. A plugin cannot
// ask the user from tool.execute.before, so asking denies.
type opencodePlatform struct{ claudePlatform }

// ResumeKeeps: opencode run --continue replays the tool outputs the plugin
// added lessons to, but the plugin's system-prompt text (the protocol and
// session lessons) is asked again for each run (1.18.33).
func (opencodePlatform) ResumeKeeps() Resumed { return Resumed{Calls: true} }

func (p opencodePlatform) Decide(d lessons.Decision, reason string) any {
	return p.claudePlatform.Decide(denyOnly(d, reason))
}

// geminiEventOf maps Gemini CLI's hook events to the hook's (a switch,
// not a map built at init: every hook call pays for its package's init).
func geminiEventOf(name string) (string, bool) {
	switch name {
	case "BeforeTool":
		return "PreToolUse", true
	case "AfterTool":
		return "PostToolUse", true
	case "BeforeAgent":
		return "UserPromptSubmit", true
	case "SessionStart":
		return "SessionStart", true
	}
	return "", false
}

// geminiPlatform answers Gemini CLI: a block is {"decision":"deny",
// "reason":…}; text goes under hookSpecificOutput.additionalContext,
// which Gemini reads at AfterTool, BeforeAgent and SessionStart but not
// at BeforeTool, so a call's lessons come with its result. Gemini has no
// "ask" either.
type geminiPlatform struct{}

// ResumeKeeps: gemini --resume replays the text AfterTool and BeforeAgent
// added, but not SessionStart's, which it asks for again (0.61.0).
func (geminiPlatform) ResumeKeeps() Resumed { return Resumed{Calls: true} }

func (geminiPlatform) Event(name string) string {
	if e, ok := geminiEventOf(name); ok {
		return e
	}
	return name
}

func (geminiPlatform) ToolLessonsAt() string { return "PostToolUse" }

type geminiOutput struct {
	Decision string          `json:"decision,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Specific *specificOutput `json:"hookSpecificOutput,omitempty"`
}

// Context: Gemini CLI replaces < and > in hook text with &lt; and &gt;
// (0.61.0, in every additionalContext), so the model would read the
// injection comment as a visible "&lt;!-- … --&gt;": it gets a plain
// bracketed line instead. Text that holds either sign, such as a command's
// `< /dev/null`, ends with a line telling the model what the entities
// stand for, in words that survive the escaping; the real-agent suite
// checks what the model receives.
func (geminiPlatform) Context(event, text string) any {
	if i := strings.LastIndex(text, "\n<!-- lessons injected: "); i >= 0 && strings.HasSuffix(text, " -->") {
		text = text[:i] + "\n[lessons injected: " + strings.TrimSuffix(text[i+len("\n<!-- lessons injected: "):], " -->") + "]"
	}
	if strings.ContainsAny(text, "<>") {
		text += "\n" + geminiEscapeNote
	}
	return geminiOutput{Specific: &specificOutput{HookEventName: event, AdditionalContext: text}}
}

// geminiEscapeNote explains Gemini CLI's escaping to the model without a
// sign it would escape.
const geminiEscapeNote = "(Gemini CLI escapes this text: &lt; stands for the less-than sign and &gt; for the greater-than sign; write the signs themselves in commands and code.)"

// toolInput replaces the arguments of a call at BeforeTool.
func (geminiPlatform) toolInput(event string, in map[string]any) any {
	return geminiOutput{Specific: &specificOutput{HookEventName: event, ToolInput: in}}
}

func (geminiPlatform) Decide(d lessons.Decision, reason string) any {
	_, reason = denyOnly(d, reason)
	return geminiOutput{Decision: string(lessons.DecisionDeny), Reason: reason}
}

// writeOutput writes one answer as a single JSON line, leaving <, > and &
// readable for the HTML comment in the text.
func writeOutput(w io.Writer, v any) error {
	if v == any(noOutput) {
		_, err := io.WriteString(w, "{}\n") // what the encoder writes, without its first-use cost
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
