package lessons

import (
	"strings"
	"unicode/utf8"
)

// A program that draws on a terminal prints more than the terminal ends
// up showing: a progress line is written again after a carriage return, a
// spinner's frame is rubbed out with a backspace, a line is erased before
// the next text. A log keeps every byte of it, so the same error comes
// back with other progress before it, and a lesson's words or pattern
// made of those bytes hold frames that will never be printed the same
// way again. Displayed is what the terminal shows.

// Displayed is a line of output as a terminal leaves it: the last text a
// carriage return started that shows anything (a progress line's final
// state, the error printed over it), backspaces applied (a rubbed-out
// spinner frame, overstruck letters), a line erased by ESC [ K erased,
// a spinner's frame it starts with (a braille glyph) dropped, and no
// control character but tab and the escape sequences of colours, which
// it keeps as printed (StripANSI drops them). A line with none of these
// comes back as it is.
func Displayed(line string) string {
	if !drawn(line) {
		return line
	}
	segs := strings.Split(line, "\r")
	out := ""
	for i := len(segs) - 1; i >= 0; i-- {
		if r := render(segs[i]); strings.TrimSpace(StripANSI(r)) != "" {
			out = r
			break
		}
	}
	return dropSpinner(out)
}

// drawn reports whether a line holds anything Displayed changes.
func drawn(line string) bool {
	for i := 0; i < len(line); i++ {
		if c := line[i]; c < 0x20 && c != '\t' && c != 0x1b || c == 0x7f || c == 0xc2 && i+1 < len(line) && line[i+1] >= 0x80 && line[i+1] < 0xa0 {
			return true // a control character (C1 ones are encoded 0xc2 0x80-0x9f)
		}
	}
	return spinnerAt(strings.TrimLeft(StripANSI(line), " "), 0) > 0
}

// render is the text one carriage return started, drawn on a line of
// cells: a backspace moves back a cell and the next character takes it;
// ESC [ K erases to the end of the line, ESC [ 2 K the whole line; other
// escape sequences are kept, without width, with the character they
// come before.
func render(s string) string {
	type cell struct {
		pre string
		r   rune
	}
	var cells []cell
	col, pre := 0, ""
	for i := 0; i < len(s); {
		if k := escapeLen(s, i); k > 0 {
			switch seq := s[i : i+k]; {
			case seq == "\x1b[K" || seq == "\x1b[0K":
				cells = cells[:min(col, len(cells))]
			case seq == "\x1b[2K":
				cells, col = cells[:0], 0
			default:
				pre += seq
			}
			i += k
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\b':
			col = max(col-1, 0)
		case r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f):
			// a bell, a NUL, a C1 control: nothing shows
		case col < len(cells):
			cells[col] = cell{pre, r}
			col, pre = col+1, ""
		default:
			cells = append(cells, cell{pre, r})
			col, pre = col+1, ""
		}
	}
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.pre)
		b.WriteRune(c.r)
	}
	b.WriteString(pre) // a colour's reset at the end
	return b.String()
}

// dropSpinner drops the spinner frame a displayed line starts with, and
// the space after it, keeping the colour codes around it.
func dropSpinner(line string) string {
	i := skipEscapes(line, 0)
	r, size := utf8.DecodeRuneInString(line[i:])
	if !spinnerFrame(r) {
		return line
	}
	j := skipEscapes(line, i+size)
	if !strings.Contains(line[i+size:j], " ") {
		return line // a glyph of the text, not a frame before it
	}
	return line[:i] + strings.ReplaceAll(line[i+size:j], " ", "") + line[j:]
}

// skipEscapes is where the escape sequences and spaces at s[i] end.
func skipEscapes(s string, i int) int {
	for i < len(s) {
		k := escapeLen(s, i)
		if s[i] == ' ' {
			k = 1
		}
		if k == 0 {
			break
		}
		i += k
	}
	return i
}

// spinnerAt is the length of the spinner frame at s[i] followed by a
// space, 0 when there is none.
func spinnerAt(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	if !spinnerFrame(r) || i+size >= len(s) || s[i+size] != ' ' {
		return 0
	}
	return size
}

// spinnerFrame reports a braille glyph, as spinners draw their frames.
func spinnerFrame(r rune) bool { return r >= 0x2800 && r <= 0x28ff }
