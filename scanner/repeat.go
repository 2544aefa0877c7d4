package scanner

import (
	"path"
	"regexp"

	"github.com/lessons-dev/lessons"
)

// A failure repeats an earlier one when both have the same command
// family and the same error class. Both are coarse on purpose: the
// question is whether the agent made the same kind of mistake again, not
// whether it typed the same bytes.

// Family is the call's command family: for a shell command "Bash" and
// its family as live capture names it (lessons.CommandFamily: "Bash git
// push", "Bash pytest" for `uv run pytest`, "Bash npm run lint"), or
// "Bash" alone for one that only sets up; for a file tool the tool and
// the file's extension ("Edit .go"); else the tool.
func (c *LoggedCall) Family() string {
	if c.Tool == "Bash" {
		if f := lessons.CommandFamily(c.Command); f.Exe != "" {
			return "Bash " + f.String()
		}
		return "Bash"
	}
	if ext := path.Ext(c.Path); ext != "" && len(ext) <= 8 {
		return c.Tool + " " + ext
	}
	return c.Tool
}

// errorClasses name what went wrong, tried in order on a failure's error
// text; the first that matches is the class.
var errorClasses = []struct {
	name string
	re   *regexp.Regexp
}{
	{"timeout", regexp.MustCompile(`(?i)timed out|timeout exceeded|deadline exceeded`)},
	{"interrupted", regexp.MustCompile(`^interrupted by the user$`)},
	{"usage", regexp.MustCompile(`(?i)unknown (option|flag|command|subcommand|argument)|unrecognized|invalid (option|argument|choice|value|flag)|usage:|requires? (an? )?(argument|value)|missing (required )?(argument|option|operand)|unexpected argument|did you mean`)},
	{"not-found", regexp.MustCompile(`(?i)command not found|no such file|does not exist|cannot find|could not find|couldn't find|not found|enoent|no module named|not installed|is not recognized`)},
	{"permission", regexp.MustCompile(`(?i)permission denied|not permitted|eacces|access denied|not allowed|forbidden|externally.managed`)},
	{"syntax", regexp.MustCompile(`(?i)syntax ?error|parse error|unexpected token|unexpected eof|unterminated|unmatched`)},
	{"network", regexp.MustCompile(`(?i)connection refused|could not resolve|econnrefused|network is unreachable|temporary failure in name resolution|tls|ssl`)},
	{"conflict", regexp.MustCompile(`(?i)conflict|already exists|non-fast-forward|\[rejected\]|lock(ed)? |is locked|in use`)},
	{"type", regexp.MustCompile(`(?i)typeerror|type error|cannot use .* as|mismatched types|incompatible types|undefined:|is not assignable|has no attribute|attributeerror|nameerror`)},
	{"test", regexp.MustCompile(`(?i)\bfail(ed|ures?)?\b|assert|expected .* (got|received|but)`)},
}

// ErrorClass is what kind of failure the call was: "rejected" when the
// user refused it, else the first of timeout, interrupted, usage,
// not-found, permission, syntax, network, conflict, type and test whose
// pattern the lines of its error output that say what went wrong match
// (trimError: the first few that look like an error), else "other". A call that did not
// fail has no class ("").
func (c *LoggedCall) ErrorClass() string {
	switch c.Outcome {
	case OutcomeRejected:
		return "rejected"
	case OutcomeFailed:
	default:
		return ""
	}
	text := c.Error
	if text != "interrupted by the user" {
		text = trimError(text)
	}
	for _, k := range errorClasses {
		if k.re.MatchString(text) {
			return k.name
		}
	}
	return "other"
}
