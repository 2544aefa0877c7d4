package scanner

import (
	"regexp"
	"strings"
)

// harnessRefusal is the error an agent gives a call its own set-up
// stopped, not the call's failure: Claude Code's hook ("PreToolUse:Edit
// hook error: [python3 …/reminder.py]: …", the form its bundle matches)
// and opencode's permission rule ("The user has specified a rule which
// prevents you from using this specific tool call", its DeniedError).
// When the same call then went through unchanged, the hook only warned
// or the rule was changed: the call does not fail now and then.
var harnessRefusal = regexp.MustCompile(`^\s*(?:<tool_use_error>)?(?:` + claudeHookError + `|The user has specified a rule which prevents you from using this specific tool call)`)

// claudeHookError opens Claude Code's report of a call its hook refused.
const claudeHookError = `PreToolUse:\S+ hook error: `

// hookSaid reads a hook's refusal of a call as the agent reports it:
// Claude Code's names the hook's command, then what it printed ("No
// stderr output" when it printed nothing there); Codex's and Gemini
// CLI's give the reason alone (the forms the real-agent suite reads).
var hookSaid = regexp.MustCompile(`^\s*(?:<tool_use_error>)?(?:` + claudeHookError + `\[(.*?)\]: ?|Command blocked by PreToolUse hook: |Tool execution blocked: )([^\n]*)`)

// hookMessage is the first line a hook that refused a call printed, or,
// when it printed none, its command (a hook written inline says its
// message there: `… && echo 'Create a branch first' && exit 2`); ""
// for another error.
func hookMessage(out string) string {
	m := hookSaid.FindStringSubmatch(out)
	if m == nil || ownHook.MatchString(m[1]) {
		return ""
	}
	if said := strings.TrimSpace(m[2]); said != "" && said != "No stderr output" {
		return said
	}
	if m[1] == "" {
		return ""
	}
	return "[" + m[1] + "]"
}

// ownHook is the command of lessons' own hook (`lessons hook --platform
// claude`, as install writes it): a call it refused is a blocking
// lesson's, not a refusal to learn again.
var ownHook = regexp.MustCompile(`\shook --platform [\w-]+$`)
