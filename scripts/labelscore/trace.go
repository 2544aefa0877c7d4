package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// traceCall holds the fields of a trace's call line that scoring reads.
type traceCall struct {
	Kind    string      `json:"kind"`
	File    string      `json:"file"`
	Line    int         `json:"line"`
	Outcome string      `json:"outcome"`
	Family  string      `json:"family"`
	Class   string      `json:"class"`
	Verdict string      `json:"verdict"`
	Fired   []traceFire `json:"fired"`
	// Copy: a call copied from an earlier log (docs/replay.md), no call
	// of its session.
	Copy bool `json:"copy"`
	// InjectedBytes is the size of the lesson text the call carried.
	InjectedBytes int `json:"injectedBytes"`
}

// traceLesson holds the fields of a learned lesson's line (kind
// "lesson") that the miss breakdown reads.
type traceLesson struct {
	Slug string   `json:"slug"`
	Live bool     `json:"live"`
	Keys []string `json:"keys"`
}

// traceFire is one lesson that reached the agent at a call.
type traceFire struct {
	Provisional bool   `json:"provisional"`
	At          string `json:"at"`
	Addresses   bool   `json:"addresses"`
}

// builtinCaught reports whether a lesson that is not learned (a
// built-in, with an empty HOME) and addresses the call's failure reached
// the agent at it, before the call or after its failure.
func (c traceCall) builtinCaught() bool {
	for _, f := range c.Fired {
		if !f.Provisional && f.Addresses {
			return true
		}
	}
	return false
}

// callKey names a call as labels do: session file base name and line.
type callKey struct {
	file string
	line int
}

// traceTally is what one trace contributes: its failed calls by key,
// and the counts behind the per-100-call figures.
type traceTally struct {
	failed map[callKey][]traceCall
	// copied holds the calls the trace reads as copied from an earlier
	// log, by key: counted nowhere.
	copied map[callKey][]traceCall
	// stopped holds the calls the trace reads as stopped by the agent, by
	// key: a label may name one that an older reading called failed.
	stopped map[callKey][]traceCall
	// other holds the calls it reads as fine or unknown, by key: where a
	// label finds no failed or stopped call, a newer reading of the log
	// (a probe's answer) no longer calls its call failed.
	other map[callKey][]traceCall
	// miss is why each failed call no lesson caught was missed (see
	// missReason), by key.
	miss                 map[callKey][]string
	calls                int
	learnedBeforeFine    int
	builtinInjectedCalls int
}

// maxTraceLine caps one trace line; a call's command is cut at 2000
// bytes, so real lines are far shorter.
const maxTraceLine = 16 << 20

// readTrace reads a replay trace; a line that is not JSON is an error
// naming it.
func readTrace(path string) (*traceTally, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t := &traceTally{failed: map[callKey][]traceCall{}, stopped: map[callKey][]traceCall{}, other: map[callKey][]traceCall{}, copied: map[callKey][]traceCall{},
		miss: map[callKey][]string{}}
	var m missTracker
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), maxTraceLine)
	for n := 1; sc.Scan(); n++ {
		var c traceCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if c.Kind == "lesson" {
			var l traceLesson
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			m.learned(l)
		}
		if c.Kind != "call" {
			continue
		}
		if c.Copy {
			k := callKey{filepath.Base(c.File), c.Line}
			t.copied[k] = append(t.copied[k], c)
			continue
		}
		why := m.call(c)
		t.calls++
		builtin := false
		for _, f := range c.Fired {
			if f.Provisional && f.At == "before" && c.Outcome == "fine" {
				t.learnedBeforeFine++
			}
			if !f.Provisional && f.At != "prompt" {
				builtin = true
			}
		}
		// Counted as replay's report counts injections (answers that
		// added text), here those a lesson that is not learned took part in.
		if builtin && c.InjectedBytes > 0 {
			t.builtinInjectedCalls++
		}
		switch c.Outcome {
		case "failed":
			k := callKey{filepath.Base(c.File), c.Line}
			t.failed[k] = append(t.failed[k], c)
			t.miss[k] = append(t.miss[k], why)
		case "stopped":
			k := callKey{filepath.Base(c.File), c.Line}
			t.stopped[k] = append(t.stopped[k], c)
		default:
			k := callKey{filepath.Base(c.File), c.Line}
			t.other[k] = append(t.other[k], c)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// stoppedCall is find's reason for a label whose call the trace reads
// as stopped by the agent (docs/replay.md), not as a failure: an older
// reading called it failed.
const stoppedCall = "stopped"

// notFailedCall is find's reason for a label whose call the trace reads
// as fine or unknown: an older reading called it failed.
const notFailedCall = "not failed"

// find returns the failed call a label names (the one at its key, or,
// where one line holds several, the one of its family) and why it was
// missed.
func (t *traceTally) find(l label) (traceCall, string, bool) {
	k := callKey{l.file, l.line}
	cs := t.failed[k]
	if len(cs) == 1 {
		return cs[0], t.miss[k][0], true
	}
	for i, c := range cs {
		if c.Family == l.family {
			return c, t.miss[k][i], true
		}
	}
	for _, c := range t.stopped[k] {
		if len(cs) == 0 && (len(t.stopped[k]) == 1 || c.Family == l.family) {
			return c, stoppedCall, true
		}
	}
	if len(cs) == 0 && len(t.stopped[k]) == 0 && len(t.other[k]) > 0 {
		return t.other[k][0], notFailedCall, true
	}
	if cs := t.copied[k]; len(cs) > 0 {
		return cs[0], copiedCall, true
	}
	return traceCall{}, "", false
}

// copiedCall is find's reason for a label whose call the trace reads as
// copied from an earlier log (a resumed or forked session): no call of
// its session, so no label of it counts.
const copiedCall = "copied"
