package scanner

import (
	"strings"
	"unicode"
)

// The agent's reading of a failure: what the agent wrote right after a
// failed call often says what the failure is ("the 114 failures are all
// from tmp/clones/, not the project's tests"; "the unused import needs
// --unsafe"). A lesson on an error that nothing got past has no fix to
// teach; the agent's reading of it is what the next agent needs most. A
// sentence reads the failure when it states something (not a question,
// not a plan: "Let me…", "I'll…") and names something specific the
// output named: a file, a path, a flag, a module, a count.

// maxReading caps the agent's reading a lesson quotes.
const maxReading = 240

// plans start a sentence that says what the agent will do, not what it
// found.
var plans = []string{"let me", "let's", "i'll", "i will", "i need", "i should", "i can", "i'm going", "now ", "next", "first", "then ", "so let"}

// reading is the first sentence of text that reads the failure that
// printed output, or "".
func reading(text, output string) string {
	out := ""
	for _, s := range splitSentences(head(text, 2000)) {
		low := strings.ToLower(s)
		if strings.HasSuffix(s, "?") || len(s) < 20 || slicesHasPrefix(low, plans) {
			continue
		}
		for _, w := range strings.Fields(low) {
			w = strings.Trim(w, "`'\"()[]{},;:!?*")
			w = strings.TrimSuffix(w, ".")
			if len(w) < 3 || !specific(w) {
				continue
			}
			if out == "" {
				out = strings.ToLower(output) // only for a sentence that names something
			}
			if strings.Contains(out, w) {
				return clip(strings.Map(func(r rune) rune {
					if unicode.IsControl(r) {
						return -1 // an escape sequence's ESC: the lesson holds no control characters
					}
					return r
				}, s), maxReading)
			}
		}
	}
	return ""
}

// specific reports whether a word names a thing rather than says
// something: it holds a digit or one of the marks of a path, a file, a
// flag or a package (./_-@:).
func specific(w string) bool {
	return strings.ContainsFunc(w, func(r rune) bool { return unicode.IsDigit(r) || strings.ContainsRune("./_-@:", r) })
}

func slicesHasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// splitSentences splits a text at a line break, and after '.', '!' or
// '?' followed by a space (so that App.tsx stays one word).
func splitSentences(s string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if t := strings.Join(strings.Fields(s[start:end]), " "); t != "" {
			out = append(out, t)
		}
		start = end
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			flush(i + 1)
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(s) || s[i+1] == ' '):
			flush(i + 1)
		}
	}
	flush(len(s))
	return out
}
