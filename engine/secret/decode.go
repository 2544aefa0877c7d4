package secret

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// view is a reading of a text: the text decoded, and where each of its
// bytes came from in the original.
type view struct {
	text string
	// from[i], to[i] are the original span of text[i]; nil for the
	// original itself.
	from, to []int
}

// span maps a span of the view back to the original.
func (v view) span(start, end int) (int, int) {
	if v.from == nil {
		return start, end
	}
	if end <= start {
		return v.from[start], v.from[start]
	}
	return v.from[start], v.to[end-1]
}

// maxDecode caps how many escape levels views undoes: JSON in a YAML
// string in a JSON log line is three.
const maxDecode = 3

// views returns s and its decoded readings: backslash escapes undone
// (JSON and YAML double-quoted strings) level by level, and YAML's
// single-quoted ” as '.
func views(s string) []view {
	out := []view{{text: s}}
	cur := out[0]
	for range maxDecode {
		if !strings.Contains(cur.text, `\`) {
			break
		}
		next, ok := unescape(cur)
		if !ok {
			break
		}
		out = append(out, next)
		cur = next
	}
	if strings.Contains(s, "''") {
		out = append(out, quoted(s))
	}
	return out
}

// unescape undoes one level of backslash escapes in v, composing the
// offset maps; false when there was nothing to undo.
func unescape(v view) (view, bool) {
	s := v.text
	var b strings.Builder
	from, to := make([]int, 0, len(s)), make([]int, 0, len(s))
	orig := func(i, j int) (int, int) { // original span of s[i:j]
		if v.from == nil {
			return i, j
		}
		return v.from[i], v.to[j-1]
	}
	emit := func(piece string, i, j int) {
		f, t := orig(i, j)
		b.WriteString(piece)
		for range len(piece) {
			from, to = append(from, f), append(to, t)
		}
	}
	changed := false
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 == len(s) {
			emit(s[i:i+1], i, i+1)
			i++
			continue
		}
		n, piece := 2, ""
		switch c := s[i+1]; c {
		case '"', '\\', '/', '\'':
			piece = string(c)
		case 'n':
			piece = "\n"
		case 't':
			piece = "\t"
		case 'r':
			piece = "\r"
		case 'u':
			if r, err := strconv.ParseUint(s[i+2:min(i+6, len(s))], 16, 32); err == nil && i+6 <= len(s) {
				n, piece = 6, string(rune(r))
				if !utf8.ValidString(piece) {
					piece = "?"
				}
			} else {
				piece = `\u`
			}
		default:
			piece = s[i : i+2]
		}
		changed = changed || piece != s[i:i+n]
		emit(piece, i, i+n)
		i += n
	}
	return view{text: b.String(), from: from, to: to}, changed
}

// quoted reads s as a YAML single-quoted string: ” is one quote.
func quoted(s string) view {
	var b strings.Builder
	from, to := make([]int, 0, len(s)), make([]int, 0, len(s))
	for i := 0; i < len(s); {
		n := 1
		if strings.HasPrefix(s[i:], "''") {
			n = 2
		}
		b.WriteByte(s[i])
		from, to = append(from, i), append(to, i+n)
		i += n
	}
	return view{text: b.String(), from: from, to: to}
}
