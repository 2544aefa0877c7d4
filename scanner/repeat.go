package scanner

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/lessons-dev/lessons"
)

// A failure repeats an earlier one when both have the same command
// family and the same error class. Both are coarse on purpose: the
// question is whether the agent made the same kind of mistake again, not
// whether it typed the same bytes.

// Family is the call's command family: for a shell command "Bash" and
// its family as live capture names it ("Bash git push", "Bash pytest"
// for `uv run pytest`, "Bash npm run lint"; for a failed call the
// family of the command in the line that failed, lessons.FailedFamily),
// or "Bash" alone for one that only sets up; for a file tool the tool
// and the file's extension ("Edit .go"); else the tool.
func (c *LoggedCall) Family() string {
	if c.Tool == "Bash" {
		f := lessons.CommandFamily(c.Command)
		if k, ok := killFamily(&c.Call, c.ExitCode); ok && c.Outcome == OutcomeFailed {
			f = k // it ended its own shell
		} else if c.Outcome == OutcomeFailed && strings.ContainsAny(c.Command, "&|;\n") {
			// a chain: the error may say which command failed
			f = lessons.FailedFamily(c.Command, trimError(head(c.ErrorText(), familyHead)))
		}
		if f.Exe != "" {
			return "Bash " + f.String()
		}
		return "Bash"
	}
	if ext := path.Ext(c.Path); ext != "" && len(ext) <= 8 {
		return c.Tool + " " + ext
	}
	return c.Tool
}

// familyHead caps the bytes of an error output searched for the
// command it names: the lines that say so come first.
const familyHead = 2 << 10

// head is s cut to its first n bytes.
func head(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// ErrorClass is what kind of failure the call was: "rejected" when the
// user refused it, else lessons.ErrorClass of its error output. A call
// that did not fail has no class ("").
func (c *LoggedCall) ErrorClass() string {
	switch c.Outcome {
	case OutcomeRejected:
		return "rejected"
	case OutcomeFailed:
		return lessons.ErrorClass(c.ErrorText())
	}
	return ""
}

// ErrorText is the call's error output as the command printed it: older
// Codex logs wrap it in a JSON object with its exit code.
func (c *LoggedCall) ErrorText() string {
	if !strings.HasPrefix(c.Error, `{"output":`) {
		return c.Error
	}
	var v struct {
		Output string `json:"output"`
	}
	if json.Unmarshal([]byte(c.Error), &v) != nil {
		return c.Error // cut short by the cap: as it is
	}
	return v.Output
}

// Key is what a failure repeats: its family and error class, "Bash
// pytest | KeyError"; "" for a call that did not fail.
func (c *LoggedCall) Key() string {
	if c.Outcome != OutcomeFailed {
		return ""
	}
	return c.Family() + " | " + c.ErrorClass()
}
