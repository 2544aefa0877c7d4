package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// label is one hand-labelled failed call.
type label struct {
	history, file, family string
	line                  int
	catchable             bool
	at                    string // labels file:line, for errors
}

// labelColumns are the TSV's columns, in order; a header row naming
// them is skipped, as are blank lines and lines starting with #.
var labelColumns = []string{"history", "repo@commit", "file", "line", "family", "verdict", "why"}

// maxLabelLine caps one TSV line.
const maxLabelLine = 1 << 16

// readLabels parses the labels file; every malformed row is an error
// naming its line.
func readLabels(path string) ([]label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []label
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), maxLabelLine)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if cols[0] == labelColumns[0] {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, n)
		if len(cols) != len(labelColumns) {
			return nil, fmt.Errorf("%s: %d columns, want %d (%s)", at, len(cols), len(labelColumns), strings.Join(labelColumns, ", "))
		}
		line, err := strconv.Atoi(cols[3])
		if err != nil || line < 1 {
			return nil, fmt.Errorf("%s: line %q is not a positive number", at, cols[3])
		}
		var catchable bool
		switch cols[5] {
		case "catchable":
			catchable = true
		case "not":
		default:
			return nil, fmt.Errorf("%s: verdict %q, want catchable or not", at, cols[5])
		}
		out = append(out, label{history: cols[0], file: filepath.Base(cols[2]), line: line,
			family: cols[4], catchable: catchable, at: at})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
