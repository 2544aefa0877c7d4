package scanner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// respace re-serializes one JSON value the way other serializers write
// it: keys sorted, a space after every : and , (Python's json.dumps),
// and <, > and & escaped as \u003c… (Go's encoding/json). What a record
// means must not change with it.
func respace(b []byte) ([]byte, bool) {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var s bytes.Buffer
	inString, escaped := false, false
	for _, c := range out {
		s.WriteByte(c)
		switch {
		case escaped:
			escaped = false
		case c == '\\' && inString:
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ':' || c == ','):
			s.WriteByte(' ')
		}
	}
	return s.Bytes(), true
}

// respaceTree rewrites every JSON and JSONL file under dir with respace.
func respaceTree(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var out bytes.Buffer
		if strings.HasSuffix(p, ".jsonl") {
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 1<<24)
			for sc.Scan() {
				line := sc.Bytes()
				if r, ok := respace(line); ok {
					line = r
				}
				out.Write(line)
				out.WriteByte('\n')
			}
		} else if strings.HasSuffix(p, ".json") {
			r, ok := respace(data)
			if !ok {
				return nil
			}
			out.Write(r)
		} else {
			return nil
		}
		return os.WriteFile(p, out.Bytes(), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestScanIgnoresJSONSpelling: the fixtures of every format, written by a
// serializer that spaces, orders and escapes differently, give the same
// candidates. The reader once gated on the bytes "is_error":true and
// missed every failure of a log written with a space after the colon.
func TestScanIgnoresJSONSpelling(t *testing.T) {
	compact, spaced := fixtures(t), fixtures(t)
	respaceTree(t, spaced)
	summary := func(dir string) []string {
		state := t.TempDir()
		scan(t, state, Options{Paths: []string{dir}})
		var out []string
		for _, c := range candidates(t, state) {
			out = append(out, fmt.Sprintf("%s %q %q", c.Kind, c.Trigger, c.Summary))
		}
		slices.Sort(out)
		return out
	}
	want, got := summary(compact), summary(spaced)
	if len(want) < 6 {
		t.Fatalf("only %d candidates from the compact fixtures", len(want))
	}
	if !slices.Equal(got, want) {
		t.Errorf("re-serialized fixtures give\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
