package scanner

import "regexp"

// harnessRefusal is the error an agent gives a call its own set-up
// stopped, not the call's failure: Claude Code's hook ("PreToolUse:Edit
// hook error: [python3 …/reminder.py]: …", the form its bundle matches)
// and opencode's permission rule ("The user has specified a rule which
// prevents you from using this specific tool call", its DeniedError).
// When the same call then went through unchanged, the hook only warned
// or the rule was changed: the call does not fail now and then.
var harnessRefusal = regexp.MustCompile(`^\s*(?:<tool_use_error>)?(?:PreToolUse:\S+ hook error: |The user has specified a rule which prevents you from using this specific tool call)`)
