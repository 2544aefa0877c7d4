package main

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestE2EReplayNarrowsABroadRetryAsTheHistoryGrows: a retry learned in
// the first session (an environment variable fixed an encoding error)
// has a trigger that fires on every python3 call. A scan of the sessions
// so far narrows it to its error once it has seen enough python3 calls
// and most fire it; a learning replay must do the same as the history
// grows, not keep the first session's form: it stops speaking before
// python3 calls that go fine, and comes with the failure when it
// recurs.
func TestE2EReplayNarrowsABroadRetryAsTheHistoryGrows(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs")
	encoding := loggedCall{"python3 report.py", "Exit code 1\nTraceback (most recent call last):\n  File \"report.py\", line 3, in <module>\nUnicodeEncodeError: 'charmap' codec can't encode character in position 0: character maps to <undefined>", true}
	writeSession(t, logs, "p1", "/w/a", 0, encoding, loggedCall{"PYTHONIOENCODING=utf-8 python3 report.py", "done", false})
	var fine []loggedCall
	for _, script := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		fine = append(fine, loggedCall{"python3 tools/" + script + ".py", "ok", false})
	}
	writeSession(t, logs, "p2", "/w/a", 1, fine...)
	writeSession(t, logs, "p3", "/w/a", 2, fine[:4]...)
	writeSession(t, logs, "p4", "/w/a", 3, fine[4:]...)
	writeSession(t, logs, "p5", "/w/a", 4, encoding)
	rep, all := s.replayRecounted(t, "--path", logs, "--learn")
	var before []string
	for _, c := range callsOf(all) {
		for _, f := range c.Fired {
			if f.Provisional && f.At == "before" {
				before = append(before, c.Session)
			}
		}
	}
	if slices.Contains(before, "p3") || slices.Contains(before, "p4") {
		t.Errorf("the learned retry fired before calls in sessions %q; want none after p2, which showed it fires on most python3 calls", before)
	}
	if l := rep.Learn; l == nil || l.Shortened != 1 || l.LearnedFiresBeforeFine > 1 {
		t.Errorf("learn %+v; want the recurring encoding error shortened, and at most one fire before a fine call", rep.Learn)
	}
}
