package lessons

import (
	"regexp"
	"strings"
	"sync"
)

// ErrorClass names what went wrong in a failed call's output, specific
// enough to tell causes apart and coarse enough that the same mistake
// made twice gets the same class:
//   - "interrupted" for a call the user interrupted, "timeout" for one
//     that ran out of time;
//   - "command not found: NAME", "No module named NAME", "Cannot find
//     module NAME";
//   - a traceback's or a thrown exception's name ("KeyError",
//     "TypeError", "java.lang.NullPointerException");
//   - "missing path" when a file or directory does not exist;
//   - "usage" for a command given options or arguments it does not take;
//   - else the first line that says what went wrong, with quoted values,
//     paths, hashes and numbers masked (`<q>`, `<path>`, `<hash>`, `N`),
//     cut to 80 characters; "no output" when there is none.
//
// Status lines the agents wrap around output ("Exit code 1") are
// skipped. The patterns compile on first use: the hook loads this
// package and most of its calls never need them.
func ErrorClass(text string) string {
	lines := errorLines(text)
	if len(lines) == 0 {
		return "no output"
	}
	re := classPatterns()
	body := strings.Join(lines, "\n")
	switch {
	case body == "interrupted by the user" || strings.HasPrefix(body, "[Request interrupted"):
		return "interrupted"
	case re.timeout.MatchString(body):
		return "timeout"
	}
	if m := re.notFoundZsh.FindStringSubmatch(body); m != nil {
		return "command not found: " + m[1]
	}
	if m := re.notFound.FindStringSubmatch(body); m != nil {
		return "command not found: " + m[1]
	}
	if m := re.noModule.FindStringSubmatch(body); m != nil {
		return "No module named " + m[1]
	}
	if m := re.jsModule.FindStringSubmatch(body); m != nil {
		return "Cannot find module " + m[1]
	}
	if name := exceptionName(lines, re); name != "" {
		return name
	}
	switch {
	case re.missing.MatchString(body):
		return "missing path"
	case re.usage.MatchString(body):
		return "usage"
	}
	return maskLine(firstErrorLine(lines), re)
}

// maxClassLines caps the lines of output ErrorClass reads.
const maxClassLines = 400

// errorLines are the non-empty lines of a failure's output, without the
// status lines agents add around it.
func errorLines(text string) []string {
	text = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(text), "<tool_use_error>"), "</tool_use_error>")
	var out []string
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(t, "Output: "); ok {
			t = strings.TrimSpace(rest) // Gemini CLI's result line
		}
		if t == "" || isStatusLine(t) {
			continue
		}
		if out = append(out, t); len(out) == maxClassLines {
			break
		}
	}
	return out
}

// isStatusLine reports a line an agent adds around a command's output.
func isStatusLine(t string) bool {
	for _, p := range []string{"Exit code", "Exit Code:", "Process exited with code", "Chunk ID:", "Wall time:",
		"Original token count:", "Directory:", "Command:", "Signal:", "Background PIDs:", "Process Group PGID:"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == "Output:" || t == "(empty)"
}

// exceptionName is the exception a traceback ends with (Python prints
// the raised one last), else the first line that starts with one
// ("TypeError: x is not a function", "Uncaught ReferenceError: …").
func exceptionName(lines []string, re *patterns) string {
	traceback := false
	for _, l := range lines {
		if strings.HasPrefix(l, "Traceback (most recent call last)") {
			traceback = true
			break
		}
	}
	if traceback {
		for i := len(lines) - 1; i >= 0; i-- {
			if m := re.exception.FindStringSubmatch(lines[i]); m != nil {
				return m[1]
			}
		}
	}
	for _, l := range lines {
		if m := re.exception.FindStringSubmatch(l); m != nil {
			return m[1]
		}
	}
	return ""
}

// firstErrorLine is the first line that says something went wrong, else
// the first line.
func firstErrorLine(lines []string) string {
	for _, l := range lines {
		low := strings.ToLower(l)
		for _, w := range []string{"error", "fatal", "fail", "cannot", "can't", "unable", "denied", "invalid", "refused",
			"not found", "panic", "unknown", "unexpected", "missing", "not allowed", "conflict", "rejected"} {
			if strings.Contains(low, w) {
				return l
			}
		}
	}
	return lines[0]
}

// maxClassLen caps a masked line's length, in runes.
const maxClassLen = 80

// maskLine masks what varies between two occurrences of the same
// mistake: quoted values, paths, hashes, numbers.
func maskLine(l string, re *patterns) string {
	l = re.quoted.ReplaceAllString(l, "<q>")
	l = re.path.ReplaceAllString(l, "<path>")
	l = re.hash.ReplaceAllStringFunc(l, func(h string) string {
		if strings.ContainsAny(h, "0123456789") {
			return "<hash>"
		}
		return h // a word such as "defaced"
	})
	l = re.number.ReplaceAllString(l, "N")
	l = strings.Join(strings.Fields(l), " ")
	if r := []rune(l); len(r) > maxClassLen {
		l = string(r[:maxClassLen])
	}
	return l
}

// patterns are ErrorClass's regular expressions.
type patterns struct {
	timeout, notFound, notFoundZsh, noModule, jsModule, exception, missing, usage, quoted, path, hash, number *regexp.Regexp
}

var classPatterns = sync.OnceValue(func() *patterns {
	return &patterns{
		timeout:     regexp.MustCompile(`(?i)\btimed out\b|timeout exceeded|deadline exceeded|\btimeout of \d+`),
		notFound:    regexp.MustCompile(`([\w.+-]+): command not found`),
		notFoundZsh: regexp.MustCompile(`command not found: ([\w.+-]+)`),
		noModule:    regexp.MustCompile(`No module named '?([\w.]+)`),
		jsModule:    regexp.MustCompile(`Cannot find (?:module|package) '([^']{1,100})'`),
		exception: regexp.MustCompile(`^(?:Uncaught |Unhandled |Exception in thread "[^"]*" |E\s+)?` +
			`((?:[a-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure))(?::|$|\s)`),
		missing: regexp.MustCompile(`(?i)no such file or directory|\bENOENT\b|does not exist|cannot find the (?:path|file)|not a directory|no such directory|path not found`),
		usage: regexp.MustCompile(`(?im)unknown (?:option|flag|command|subcommand|argument)|unrecognized (?:option|argument|arguments)|` +
			`invalid (?:option|choice|flag)|^usage:|requires? (?:an? )?(?:argument|value)|missing (?:required )?(?:argument|option|operand)|unexpected argument`),
		quoted: regexp.MustCompile("'[^']*'|\"[^\"]*\"|`[^`]*`|‘[^’]*’|“[^”]*”"),
		path:   regexp.MustCompile(`(?:[A-Za-z]:)?(?:~|\.{1,2})?[\w.@+-]*(?:[/\\][\w.@+-]+)+[/\\]?(?::\d+)*|\b[\w-]+\.(?:py|go|js|ts|tsx|jsx|rs|rb|java|c|h|cpp|json|ya?ml|toml|md|txt|sh|lock)\b(?::\d+)*`),
		hash:   regexp.MustCompile(`\b[0-9a-f]{7,64}\b`),
		number: regexp.MustCompile(`\d+(?:\.\d+)*`),
	}
})
