package scanner

import (
	"strings"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
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

// ranOutside reports whether c, a failure of the watched failure's
// family, is a command of it let out of the sandbox that got further:
// the sandboxed run printed nothing, and this one printed errors of its
// own (a type check's findings, whatever its options). The sandbox
// stopped the first run; the second ran. A sandboxed failure that
// printed something is not said so: a line of it (a fallback's warning)
// may be read as the failure when the run then failed for another
// reason.
func ranOutside(w *errWatch, c *Call, r *Result) bool {
	f := w.rec.call
	if c.Tool != "Bash" || f.Tool != "Bash" || r.Timeout || r.Stopped || strings.TrimSpace(r.Output) == "" ||
		!sandboxSetting(f.Args, c.Args) {
		return false
	}
	class := lessons.ErrorClass(r.Output)
	return lessons.ErrorClass(w.res.Output) == lessons.NoOutputClass && class != lessons.NoOutputClass && !lessons.IsRefusal(class)
}

// outOfSandbox reports whether what got past the watched failure is the
// same command, or for one that printed nothing a command of its family
// (ranOutside), let out of the sandbox: then even a failure that printed
// nothing has a lesson, the setting.
func (w *errWatch) outOfSandbox() bool {
	return w.outside || w.bySetting() && sandboxSetting(w.rec.call.Args, w.fix.Args)
}

// failedSilently ends the problem of a shell failure that printed nothing.
const failedSilently = "failed with no output"

// onSilentSandbox fills a lesson on a shell failure that printed nothing,
// which the same command got past out of the sandbox (Codex's "failed in
// sandbox: " and nothing after it): with no error for a trigger to come
// after, it comes before the command's family, and says the setting.
// ok is false when the family's pattern does not find the command.
func (c *Candidate) onSilentSandbox(fam lessons.Family) bool {
	t := lessons.Trigger{Commands: []string{headPattern(fam.Exe, fam.Sub)}}
	if fam.Exe == "" || !commandFires(t, c.Trigger) {
		return false
	}
	c.Triggers = t
	c.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: c.Trigger}}}
	c.Family = errorUnit(c.Tool, fam)
	c.Signals.Sandboxed = true
	c.Summary = secret.Sentence(shorten("The agent's sandbox stops "+c.Family+": it fails there with no output", maxSummary))
	c.Solution = "It failed so before in this project. What got past it then: " + c.Solution +
		". Ask for that setting the first time you run " + c.Family + "."
	return true
}

// silentSandbox reports whether c is a lesson on a shell failure under
// the sandbox that printed nothing (onSilentSandbox): a lesson on an
// error with no error trigger.
func (c *Candidate) silentSandbox() bool {
	return c.Kind == KindError && c.Signals.Sandboxed && len(c.Triggers.Errors) == 0 && len(c.Triggers.Commands) > 0
}
