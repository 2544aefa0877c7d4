package iostreams

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character that could drive a terminal shown
// as a visible escape instead: C0 controls other than newline and tab,
// DEL and bytes that are not UTF-8 as \xNN, C1 controls and the
// bidirectional overrides as \uNNNN. Lesson text comes from packs and
// session logs, so a summary holding ESC ]52 (a clipboard write) or a
// carriage return and a line erase must print as text, not act.
func Escape(s string) string { return escape(s, false) }

// EscapeLine is Escape for a field kept on one line, such as a table
// cell: a newline is shown as \n and a tab becomes a space.
func EscapeLine(s string) string { return escape(s, true) }

func escape(s string, oneLine bool) string {
	if safe(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && oneLine:
			b.WriteString(`\n`)
		case r == '\t' && oneLine:
			b.WriteByte(' ')
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isC1(r) || isBidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// safe reports whether s needs no escaping, without allocating.
func safe(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return safeUnicode(s[i:])
		case c == '\n' || c == '\t':
			if oneLine {
				return false
			}
		case c < 0x20 || c == 0x7f:
			return false
		}
	}
	return true
}

func safeUnicode(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || isC1(r) || isBidi(r) {
			return false
		}
	}
	return true
}

// isC1 reports whether r is a C1 control (U+0080–U+009F): some
// terminals act on U+009B as on ESC [.
func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// isBidi reports whether r overrides the direction of the text around it,
// which can make a line read differently from what it holds.
func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// NewEscaper returns a writer that writes to w what it is given with
// Escape applied. Each Write must hold whole characters, as fmt's do.
func NewEscaper(w io.Writer) io.Writer { return escaper{w} }

type escaper struct{ w io.Writer }

func (e escaper) Write(p []byte) (int, error) {
	if _, err := io.WriteString(e.w, Escape(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EscapeJSON returns JSON text with the characters that encoding/json
// leaves raw but a terminal may act on (DEL, C1 controls, bidirectional
// overrides) written as \uNNNN escapes, which mean the same to a JSON
// reader. It expects valid UTF-8, as encoding/json writes.
func EscapeJSON(data []byte) []byte {
	if safe(string(data), false) {
		return data
	}
	out := make([]byte, 0, len(data)+32)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == 0x7f || isC1(r) || isBidi(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	return out
}
