package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/lessons-dev/lessons/engine/secret"
)

// redacted stands for a secret scrub took out.
const redacted = "[REDACTED]"

// scrub takes the secrets out of a command, an error line or a reason
// before live capture stores it or shows it, and joins its words with
// single spaces. The rules are package secret's, the CLI's own
// (gitleaks' default set as a generated table, and client arguments,
// headers, URLs and assignments), read on the text as written and
// decoded. Their regular expressions are compiled on first use, and
// scrub runs only when a failure is recorded or a nudge written, so a
// call with no failure pays nothing for them. On top, any run of 32 or
// more key-like characters goes too (keyLike): the agent is shown this
// text, and a key of a shape no rule knows is likelier here than a
// 32-character word worth reading.
func scrub(s string) string {
	if len(s) > maxScrub {
		s = clip(s, maxScrub) // every caller keeps far less: a 30 MiB command costs no more
	}
	words := strings.Fields(strings.Map(printable, secret.Redact(s, redacted)))
	for i, w := range words {
		if core := strings.Trim(w, "\"'`()[]{}<>,;."); keyLike(core) {
			words[i] = strings.Replace(w, core, redacted, 1)
		}
	}
	return strings.Join(words, " ")
}

// maxScrub caps what scrub reads: its callers keep at most 600 bytes of
// what it returns.
const maxScrub = 4 << 10

// printable turns control characters into spaces.
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
		return ' '
	}
	return r
}

// keyLike reports whether a word looks like a key: 32 or more characters
// of letters, digits and +/=_- with both letters and digits.
func keyLike(w string) bool {
	if len(w) < 32 {
		return false
	}
	letters, digits := false, false
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letters = true
		case r == '+', r == '/', r == '=', r == '_', r == '-':
		default:
			return false
		}
	}
	return letters && digits
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
