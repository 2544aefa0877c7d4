package scanner

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lessons-dev/lessons"
)

// An error trigger is made of the error line's words, with what changes
// from one occurrence of the same error to the next masked: a path or a
// file name (the next run names another file, or the same one from
// another directory), a URL, a value the error quotes (in any of the
// usual quote styles: '…', "…", `…`, `…', ‘…’, “…”, «…», „…“), numbers,
// a branch's name, and the other words taskToken reads as one task's (a
// hash, an id).
// The words left keep the pattern about that error; with fewer than two
// of them it would say too little, and there is none.

// errorPattern is a linear pattern for an error line: its words, masked
// as above, up to maxErrorWords words; "" when too little is left to say
// what failed.
func errorPattern(line string) string { return linePattern(line, false, nil) }

// subjectPattern is errorPattern with the one word the line ends with
// after a colon masked too ("no such table: shop_order", "Unknown skill:
// deploy"): the name of what was missing or wrong, which changes from
// one occurrence to the next while the error stays. Not after a severity
// label alone ("error: externally-managed-environment"): that word is the
// error's name.
func subjectPattern(line string) string { return linePattern(line, true, nil) }

// callPattern is subjectPattern with the words the failed command passed
// masked too (the folder of "pattern ./e2e/...: directory prefix e2e does
// not contain main module"): the next call that meets the error passes
// its own.
func callPattern(line, cmd, sub string) string {
	passed := map[string]bool{}
	for _, w := range callWords(cmd) {
		if w == sub {
			continue // the subcommand names what failed ("no test target named …")
		}
		for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '/' || r == '\\' }) {
			if len(part) >= 2 && strings.ContainsFunc(part, unicode.IsLetter) {
				passed[part] = true
			}
		}
	}
	return linePattern(line, true, passed)
}

// severity are the labels a line may give its error by, lower case.
var severity = map[string]bool{"error": true, "err": true, "fatal": true, "warning": true, "failure": true}

// maxErrorWords is how much of an error line a pattern holds.
const maxErrorWords = 12

// maxQuoted is the longest quoted text read as one value; a longer one
// is a quoted message, whose words are the error's.
const maxQuoted = 200

// maxQuotedWords is how many words a quoted value has at most: more are
// a quoted message.
const maxQuotedWords = 3

var digitRun = regexp.MustCompile(`[0-9]+`)

// errUnit is a word of an error line, or a quoted value of several words
// with what is glued to it, as a pattern reads it.
type errUnit struct {
	text         string
	open, close  string // the quotes of a quoted value, else ""
	masked, word bool   // word: a literal with a letter in it
}

// linePattern is errorPattern, and subjectPattern when subject is set;
// words in passed are masked.
func linePattern(line string, subject bool, passed map[string]bool) string {
	units := errorUnits(line)
	for i, u := range units {
		if !u.masked && passed[strings.Trim(u.text, "()[]{}<>,;:!?.")] {
			units[i].masked, units[i].word = true, false
		}
	}
	if n := len(units); subject && n >= 2 && !units[n-1].masked && strings.HasSuffix(units[n-2].text, ":") &&
		(n > 2 || !severity[strings.ToLower(strings.TrimSuffix(units[0].text, ":"))]) {
		units[n-1].masked, units[n-1].word = true, false
	}
	if len(units) > maxErrorWords {
		units = units[:maxErrorWords]
	}
	parts := make([]string, 0, len(units))
	literal := 0
	for _, u := range units {
		switch {
		case u.open != "":
			// the same quotes, whatever they hold this time (a path
			// with a space in it, two words for one)
			parts = append(parts, `\S*`+regexp.QuoteMeta(u.open)+`[^`+classQuote(u.close)+`\n]*`+regexp.QuoteMeta(u.close)+`\S*`)
		case u.masked:
			parts = append(parts, `\S+`)
		default:
			parts = append(parts, escapeControls(digitRun.ReplaceAllString(regexp.QuoteMeta(u.text), `\d+`)))
			if u.word {
				literal++
			}
		}
	}
	if literal < 2 {
		return ""
	}
	p := strings.Join(parts, `\s+`)
	if _, err := lessons.CompilePattern(p); err != nil {
		return ""
	}
	return p
}

// escapeControls writes the control characters a literal holds (the
// escape of a colour code the hook sees printed) as \xHH: the pattern
// matches them and holds none.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' {
			fmt.Fprintf(&b, `\x%02x`, r) // C0 and C1 controls are all below 0x100
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// classQuote escapes a closing quote for a character class.
func classQuote(q string) string {
	if q == "`" || q == `"` || q == "'" {
		return q
	}
	return regexp.QuoteMeta(q)
}

// errorUnits splits an error line into its words, a quoted value of a
// few words with what is glued to it being one, each marked masked or
// not.
func errorUnits(line string) []errUnit {
	spans := quotedSpans(line)
	var units []errUnit
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		start, end, open, close := i, spaceAfter(line, i), "", ""
		for _, s := range spans {
			if s.start < end && s.end > start {
				// a quoted value: the words it spans, and what is glued to it
				open, close = s.open, s.close
				end = max(end, spaceAfter(line, s.end))
			}
		}
		w := line[start:end]
		i = end
		switch {
		case open != "":
			units = append(units, errUnit{text: w, open: open, close: close, masked: true})
		case variableWord(w):
			units = append(units, errUnit{text: w, masked: true})
		case branchName(units, w):
			units = append(units, errUnit{text: w, masked: true})
		default:
			units = append(units, errUnit{text: w, word: strings.ContainsFunc(w, unicode.IsLetter)})
		}
	}
	return units
}

// branchName reports whether w, the word after units, is the name of a
// branch ("The current branch fix/login-form has no upstream branch"):
// one session's, whatever its shape (a lint rule's name has the same).
// A plain word after "branch" ("branch is", "branch named") is the
// sentence's.
func branchName(units []errUnit, w string) bool {
	if len(units) == 0 || !strings.EqualFold(units[len(units)-1].text, "branch") {
		return false
	}
	return strings.ContainsAny(w, "/-_.0123456789")
}

// spaceAfter is where the word at i ends: the next space, or the end.
func spaceAfter(line string, i int) int {
	if j := strings.IndexFunc(line[i:], unicode.IsSpace); j >= 0 {
		return i + j
	}
	return len(line)
}

// variableWord reports whether a word of an error line changes from one
// occurrence of the error to the next: a path, a file name, a URL, a
// word with a quote in it (a value quoted, or a quote the line was cut
// inside), a word of one task (taskToken).
func variableWord(w string) bool {
	if strings.ContainsAny(w, "'\"`‘’“”«»„") {
		return true
	}
	bare := strings.TrimRight(strings.Trim(w, "()[]{}<>,;:!?"), ".")
	return pathOrFile(position.ReplaceAllString(bare, "")) || taskToken(bare)
}

// pathOrFile reports whether a word is a path, a URL or a file name: it
// has a slash in it (a separator, a URL's), starts with ~, or is a name
// with an extension (main.go, .env, package.json); but for a check's
// name (ruleName).
func pathOrFile(w string) bool {
	switch {
	case len(w) < 2 || ruleName(w):
		return false
	case strings.ContainsRune(w, '/'), strings.HasPrefix(w, "~"), strings.Count(w, `\`) >= 2:
		return true
	}
	return fileName.MatchString(w)
}

// ruleName reports whether a word joined by slashes names a check, as
// linters name their rules (lint/style/useConst, react-hooks/rules-of-hooks,
// @typescript-eslint/no-unused-vars): a relative name, no file at its
// end, and a segment in camelCase, a scope's @ or a kebab-case word. Such
// a name is the error's own word, the same the next time it fires.
func ruleName(w string) bool {
	if !strings.ContainsRune(w, '/') || strings.HasPrefix(w, "/") || strings.HasPrefix(w, ".") || strings.HasPrefix(w, "~") ||
		strings.Contains(w, "://") || fileName.MatchString(w[strings.LastIndexByte(w, '/')+1:]) {
		return false
	}
	return strings.HasPrefix(w, "@") || camelOrKebab.MatchString(w)
}

// camelOrKebab finds a camelCase or a kebab-case segment.
var camelOrKebab = regexp.MustCompile(`(?:^|/)(?:[a-z]+[A-Z]|[a-z]+-[a-z])`)

// position is a line and column a path is given with (a.go:12:3).
var position = regexp.MustCompile(`(?::\d+)+$`)

// fileName is a name with an extension, or a dot file.
var fileName = regexp.MustCompile(`^(?:[\w@+-][\w.@+-]*)?\.[A-Za-z][A-Za-z0-9_-]{0,9}$`)

// quoteSpan is a quoted value of an error line: its bytes, quotes
// included, and its quotes.
type quoteSpan struct {
	start, end  int
	open, close string
}

// quotePairs are the quotes a value is set off with, opening and
// closing: ASCII, GNU's `x', typographic, guillemets, German low-high.
var quotePairs = []struct{ open, close string }{
	{"'", "'"}, {`"`, `"`}, {"`", "`"}, {"`", "'"}, {"‘", "’"}, {"“", "”"}, {"«", "»"}, {"„", "“"}, {"„", "”"}, {"‚", "‘"}, {"‚", "’"},
}

// quotedSpans finds the quoted values of a line: an opening quote at the
// start of a word (not an apostrophe inside one: can't), its closing
// quote at the end of one, within maxQuoted bytes and maxQuotedWords
// words; spans do not overlap.
func quotedSpans(line string) []quoteSpan {
	var out []quoteSpan
	for i := 0; i < len(line); {
		if i > 0 {
			if r, _ := utf8.DecodeLastRuneInString(line[:i]); isWordRune(r) {
				i++
				continue
			}
		}
		s, ok := quoteAt(line, i)
		if !ok {
			i++
			continue
		}
		out = append(out, s)
		i = s.end
	}
	return out
}

// quoteAt is the quoted value that opens at i, if one does.
func quoteAt(line string, i int) (quoteSpan, bool) {
	for _, q := range quotePairs {
		if !strings.HasPrefix(line[i:], q.open) {
			continue
		}
		from := i + len(q.open)
		for j := from; j < len(line) && j-i <= maxQuoted; {
			k := strings.Index(line[j:], q.close)
			if k < 0 || j+k-i > maxQuoted {
				break
			}
			end := j + k + len(q.close)
			if r, _ := utf8.DecodeRuneInString(line[end:]); end == len(line) || !isWordRune(r) {
				if inner := line[from : j+k]; inner != "" && len(strings.Fields(inner)) <= maxQuotedWords {
					return quoteSpan{start: i, end: end, open: q.open, close: q.close}, true
				}
				break
			}
			j = end // an apostrophe inside a word: the value goes on
		}
	}
	return quoteSpan{}, false
}

// isWordRune reports a letter, a digit or an underscore.
func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
