package scanner

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/lessons-dev/lessons"
)

// A failure whose output already says what to do ("run `vp check --fix`
// to fix them", `Expected "text" | "markdown"`, "run `rustup component
// add llvm-tools`") is got past by doing what it says. A lesson shown
// after that error tells the agent nothing the error does not: it is
// said as a reminder, never proposed to the team (Signals.Reminds).

// echoes reports whether worked, the call or steps that got past a
// failure, adds to failed only words the failure's output already holds:
// every word of worked that failed lacks is in output, and one of them
// is a name or an option, not a short word ("Use -f if you really want
// to add them"); never for a usage error, whose text lists every option.
// A redirection the fix added (2>&1) is no word of it.
func echoes(output, failed, worked string) bool {
	if lessons.ErrorClass(output) == "usage" {
		return false // a usage text lists every option: which one was meant is the lesson's
	}
	had := map[string]bool{}
	for _, w := range fixWords(failed) {
		had[w] = true
	}
	named := false
	for _, w := range fixWords(redirect.ReplaceAllString(worked, " ")) {
		if w == "" || had[w] {
			continue
		}
		if !containsWord(output, w) {
			return false
		}
		named = named || (len(w) >= 3 || strings.HasPrefix(w, "-")) && strings.ContainsFunc(w, unicode.IsLetter)
	}
	return named
}

// fixWords are the words of a command or a fix's text: split at spaces,
// quotes, "=" and punctuation, so that `--fix`, "text" and format=json
// are words.
func fixWords(s string) []string {
	return fixWordSep.Split(s, -1)
}

// redirect is a shell redirection of a stream to a file or another
// stream: 2>&1, >/dev/null, 2> err.log.
var redirect = regexp.MustCompile(`(?:^|\s)[0-9]*(?:&>>?|>>?&?|<&?)\s*\S+`)

var fixWordSep = regexp.MustCompile("[\\s`'\",;:()\\[\\]{}=|&<>]+")

// backticked is the text a fix's sentence quotes in backticks: the
// values and commands it names.
func backticked(fix string) string {
	parts := strings.Split(fix, "`")
	var b strings.Builder
	for i := 1; i < len(parts); i += 2 {
		b.WriteString(parts[i] + " ")
	}
	return b.String()
}

// callText is the text of a call a fix is compared with: its command,
// path and settings.
func callText(c *Call) string {
	return c.Command + " " + c.Path + " " + c.Args
}
