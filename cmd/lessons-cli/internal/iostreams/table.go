package iostreams

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Table prints rows: aligned columns on a terminal, tab-separated fields
// otherwise, so scripts can cut them.
type Table struct {
	w     io.Writer
	tw    *tabwriter.Writer
	width int
}

// NewTable starts a table on the streams' output.
func (s *IOStreams) NewTable() *Table {
	t := &Table{w: s.Out}
	if s.stdoutTTY {
		t.tw = tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
		t.w = t.tw
		t.width = 120
	}
	return t
}

// Row adds one row, each field escaped to one line (EscapeLine). On a
// terminal the last field is cut to fit.
func (t *Table) Row(fields ...string) {
	for i, f := range fields {
		f = EscapeLine(f)
		if t.tw != nil && i == len(fields)-1 {
			if r := []rune(f); len(r) > t.width/2 {
				f = string(r[:t.width/2-1]) + "…"
			}
		}
		fields[i] = f
	}
	fmt.Fprintln(t.w, strings.Join(fields, "\t"))
}

// Flush writes out an aligned table.
func (t *Table) Flush() error {
	if t.tw != nil {
		return t.tw.Flush()
	}
	return nil
}
