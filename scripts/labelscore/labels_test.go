package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// heldoutLabels is the checked-in label set, relative to this package.
const heldoutLabels = "../../testdata/labelled/heldout-repeats.tsv"

// catchableKinds are the kinds a catchable label's reason starts with,
// as the label file's header defines them.
var catchableKinds = map[string]bool{"precondition": true, "wrong-flag": true, "wrong-invocation": true,
	"wrong-path": true, "known-failure": true, "missing-tool": true, "tool-limit": true}

// TestHeldoutLabelsWellFormed keeps the checked-in labels usable without
// the histories: every row parses, no call is labelled twice, a reason
// has at most 15 words, and a catchable one names its kind.
func TestHeldoutLabelsWellFormed(t *testing.T) {
	labels, err := readLabels(heldoutLabels)
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) == 0 {
		t.Fatal("no labels read")
	}
	seen := map[label]bool{}
	for _, l := range labels {
		key := label{history: l.history, file: l.file, line: l.line, family: l.family}
		if seen[key] {
			t.Errorf("%s: %s %s line %d (%s) labelled twice", l.at, l.history, l.file, l.line, l.family)
		}
		seen[key] = true
	}
	f, err := os.Open(heldoutLabels)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		cols := strings.Split(sc.Text(), "\t")
		if strings.HasPrefix(sc.Text(), "#") || len(cols) != len(labelColumns) || cols[0] == "history" {
			continue
		}
		why := cols[6]
		if w := len(strings.Fields(why)); w == 0 || w > 15 {
			t.Errorf("line %d: reason has %d words, want 1 to 15", n, w)
		}
		kind, _, _ := strings.Cut(why, ":")
		if cols[5] == "catchable" && !catchableKinds[kind] {
			t.Errorf("line %d: catchable reason starts with %q, not a kind the header names", n, kind)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
