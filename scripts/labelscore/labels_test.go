package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// heldoutLabels are the checked-in label sets (test set v1 and v2),
// relative to this package.
var heldoutLabels = []string{
	"../../testdata/labelled/heldout-repeats.tsv",
	"../../testdata/labelled/heldout2-repeats.tsv",
}

// catchableKinds are the kinds a catchable label's reason starts with,
// as the label file's header defines them.
var catchableKinds = map[string]bool{"precondition": true, "wrong-flag": true, "wrong-invocation": true,
	"wrong-path": true, "known-failure": true, "missing-tool": true, "tool-limit": true}

// TestHeldoutLabelsWellFormed keeps the checked-in labels usable without
// the histories: every row parses, no call is labelled twice, a reason
// has at most 15 words, and a catchable one names its kind.
func TestHeldoutLabelsWellFormed(t *testing.T) {
	for _, path := range heldoutLabels {
		t.Run(filepath.Base(path), func(t *testing.T) { checkLabelsWellFormed(t, path) })
	}
}

// checkLabelsWellFormed checks one label file as
// TestHeldoutLabelsWellFormed describes.
func checkLabelsWellFormed(t *testing.T, path string) {
	labels, err := readLabels(path)
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
	f, err := os.Open(path)
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
			t.Errorf("%s:%d: reason has %d words, want 1 to 15", path, n, w)
		}
		kind, _, _ := strings.Cut(why, ":")
		if cols[5] == "catchable" && !catchableKinds[kind] {
			t.Errorf("%s:%d: catchable reason starts with %q, not a kind the header names", path, n, kind)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
