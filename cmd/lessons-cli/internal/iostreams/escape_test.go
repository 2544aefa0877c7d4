package iostreams

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want, line string }{
		{"plain text, ünïcode ✓", "plain text, ünïcode ✓", "plain text, ünïcode ✓"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab", `two\nlines and a tab`},
		{"clip \x1b]52;c;ZXZpbA==\x07 done", `clip \x1b]52;c;ZXZpbA==\x07 done`, `clip \x1b]52;c;ZXZpbA==\x07 done`},
		{"safe\r\x1b[2Kevil", `safe\x0d\x1b[2Kevil`, `safe\x0d\x1b[2Kevil`},
		{"c1 \u009b31m red", `c1 \u009b31m red`, `c1 \u009b31m red`},
		{"del \x7f nul \x00", `del \x7f nul \x00`, `del \x7f nul \x00`},
		{"raw byte \x9b31m", `raw byte \x9b31m`, `raw byte \x9b31m`},
		{"bidi \u202eevil\u202c", `bidi \u202eevil\u202c`, `bidi \u202eevil\u202c`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := EscapeLine(tc.in); got != tc.line {
			t.Errorf("EscapeLine(%q) = %q, want %q", tc.in, got, tc.line)
		}
	}
}

// No control character survives, whatever the input.
func TestEscapeLeavesNoControl(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r < 0x3000; r++ {
		all.WriteRune(r)
	}
	all.WriteString("\xff\xfe\x80")
	for _, out := range []string{Escape(all.String()), EscapeLine(all.String())} {
		for _, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || isBidi(r) || r == 0xfffd {
				t.Fatalf("escaped text still holds %U", r)
			}
		}
	}
}

func TestTableEscapesCells(t *testing.T) {
	ios, _, out, _ := Test()
	for _, tty := range []bool{false, true} {
		out.Reset()
		ios.SetStdoutTTY(tty)
		tb := ios.NewTable()
		tb.Row("slug", "sum\x1b]52;c;eA==\x07mary\r\x1b[2K")
		tb.Flush()
		if got := out.String(); strings.ContainsAny(got, "\x1b\r\x07") || !strings.Contains(got, `\x1b]52`) {
			t.Errorf("table (tty %v) printed %q", tty, got)
		}
	}
}

func TestEscaper(t *testing.T) {
	var b bytes.Buffer
	w := NewEscaper(&b)
	n, err := fmt.Fprintf(w, "a\x1b[31m%s\n", "b")
	if err != nil || n != 8 || b.String() != "a\\x1b[31mb\n" {
		t.Errorf("Fprintf through the escaper = %d, %v, %q", n, err, b.String())
	}
}

func TestEscapeJSON(t *testing.T) {
	in := []byte(`{"summary": "c1 ` + "\u009b" + `2K del ` + "\x7f" + ` bidi ` + "\u202e" + ` ok ✓ \u001b"}`)
	want := `{"summary": "c1 \u009b2K del \u007f bidi \u202e ok ✓ \u001b"}`
	if got := string(EscapeJSON(in)); got != want {
		t.Errorf("EscapeJSON = %s, want %s", got, want)
	}
	var v, w map[string]string
	if json.Unmarshal(in, &v) != nil || json.Unmarshal([]byte(want), &w) != nil || v["summary"] != w["summary"] {
		t.Errorf("the escaped JSON means something else: %q vs %q", v, w)
	}
}
