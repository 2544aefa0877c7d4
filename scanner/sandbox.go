package scanner

import (
	"strings"

	"github.com/lessons-dev/lessons"
)

// A failure that the same command got past once a setting let the shell
// out of its sandbox (Claude Code's dangerouslyDisableSandbox, Codex's
// sandbox_permissions and with_escalated_permissions) was the sandbox's
// refusal, whatever the wording ("Permission denied (os error 13)" on a
// cache outside the workspace): the next command that needs the same
// thing meets it too, so its lesson holds for any shell command, as a
// refusal the error class names does (lessons.ClassObject).

// sandboxSetting reports whether the settings a call that worked
// switched on (args, as Call.Args holds them, against failed's) include
// one that names the sandbox or escalated permissions.
func sandboxSetting(failed, worked string) bool {
	before := argPairs(failed)
	for _, kv := range argPairs(worked) {
		if old, ok := lookupArg(before, kv[0]); ok && old == kv[1] {
			continue
		}
		name := strings.ToLower(kv[0] + " " + kv[1])
		if strings.Contains(name, "sandbox") || strings.Contains(name, "escalat") {
			return true
		}
	}
	return false
}

// sandboxTrigger is t for any shell command: its error pattern alone.
func sandboxTrigger(t lessons.Trigger) lessons.Trigger {
	return lessons.Trigger{Tools: []string{"Bash"}, Errors: t.Errors}
}
