package scanner

import "regexp"

// hookRefusal is the error Claude Code gives a call one of its hooks
// stopped ("PreToolUse:Edit hook error: [python3 …/reminder.py]: …"), as
// its bundle recognises it.
var hookRefusal = regexp.MustCompile(`^\s*(?:<tool_use_error>)?PreToolUse:\S+ hook error: `)
