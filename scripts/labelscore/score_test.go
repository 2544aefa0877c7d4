package main

import (
	"maps"
	"reflect"
	"strings"
	"testing"
)

// TestScoreArithmetic checks every figure against a hand-written trace
// and labels: a catch by prevented and by shortened, an unrelated verdict
// that is no catch, two calls on one log line told apart by family,
// learned fires before fine calls only (not after, not before failures),
// built-in injections counted per answer that added text (before the call
// or with its failure, never at a prompt), a catchable call only a
// built-in that addresses it reached counted apart (+builtin), and
// labels of a history not asked for left out.
func TestScoreArithmetic(t *testing.T) {
	rows, err := score("testdata/labels.tsv", []string{"a", "b"},
		map[string]string{"a": "testdata/a.jsonl", "b": "testdata/b.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{history: "a", labelled: 5, catchable: 4, caught: 2, builtinCaught: 1, calls: 10, learnedBeforeFine: 2, builtinInjectedCalls: 3, missed: map[string]int{missTold: 1, missNothing: 1}},
		{history: "b", labelled: 1, catchable: 1, caught: 1, calls: 2, missed: map[string]int{}},
		{history: "total", labelled: 6, catchable: 5, caught: 3, builtinCaught: 1, calls: 12, learnedBeforeFine: 2, builtinInjectedCalls: 3, missed: map[string]int{missTold: 1, missNothing: 1}},
	}
	if len(rows) != len(want) {
		t.Fatalf("score gave %d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i := range want {
		if !reflect.DeepEqual(rows[i], want[i]) {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
	out := render(rows)
	for _, s := range []string{"recall = caught / catchable", "\na                   5         4      2    0.50      10            20.00           30.00  1/0/0/1  1\n",
		"\ntotal               6         5      3    0.60      12            16.67           25.00  1/0/0/1  1\n"} {
		if !strings.Contains(out, s) {
			t.Errorf("render() lacks %q:\n%s", s, out)
		}
	}
}

// TestScoreErrors: a label its trace lacks, or a verdict that is neither
// catchable nor not, is an error naming the label's file and line.
func TestScoreErrors(t *testing.T) {
	for file, want := range map[string]string{
		"testdata/stray.tsv":      "testdata/stray.tsv:1: no failed call 0002.jsonl line 4",
		"testdata/badverdict.tsv": `testdata/badverdict.tsv:1: verdict "maybe"`,
	} {
		_, err := score(file, []string{"a"}, map[string]string{"a": "testdata/a.jsonl"})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("score(%s) error = %v, want one containing %q", file, err, want)
		}
	}
}

// TestMissReasons: each catchable call not caught is counted under the
// first reason that holds: a lesson on its key caught it earlier in the
// session (told), a live lesson on its key did not match (unmatched), a
// lesson on its key was not live (below), or none was learned (nothing,
// also when only another key of its family was learned); a lesson's last
// line before the call decides whether it was live.
func TestMissReasons(t *testing.T) {
	rows, err := score("testdata/miss.tsv", []string{"m"}, map[string]string{"m": "testdata/m.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{missTold: 1, missUnmatched: 1, missBelow: 2, missNothing: 1}
	if r := rows[0]; r.caught != 1 || !maps.Equal(r.missed, want) {
		t.Errorf("caught %d, missed %v; want 1 caught, missed %v", r.caught, r.missed, want)
	}
	if out := render(rows); !strings.Contains(out, "  1/1/2/1  0\n") {
		t.Errorf("render() lacks the missed column 1/1/2/1:\n%s", out)
	}
}

// TestScoreStopped: a label whose call the trace now reads as stopped by
// the agent, or as fine (a newer reading of the log: a probe's answer),
// is no error; each is counted apart on its own line, and a catchable
// one is a miss, so that a newer reading can never raise recall.
func TestScoreStopped(t *testing.T) {
	rows, err := score("testdata/stopped.tsv", []string{"s"}, map[string]string{"s": "testdata/stopped.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	want := row{history: "s", labelled: 4, stopped: 2, stoppedCatchable: 1, notFailed: 1, notFailedCatchable: 1, catchable: 3, caught: 1, calls: 4, missed: map[string]int{}}
	if !reflect.DeepEqual(rows[0], want) {
		t.Errorf("row = %+v, want %+v", rows[0], want)
	}
	if out := render(rows); !strings.Contains(out, "# stopped: 2 labelled calls (1 catchable, counted as missed)") {
		t.Errorf("render() lacks the stopped line:\n%s", out)
	}
	if out := render(rows); !strings.Contains(out, "# not failed: 1 labelled calls (1 catchable, counted as missed)") {
		t.Errorf("render() lacks the not-failed line:\n%s", out)
	}
}
