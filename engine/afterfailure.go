package engine

import (
	"errors"
	"os"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// A failed call is where a lesson on its error (triggers.errors) comes:
// in the answer to the outcome event that reports the failure, the same
// answer live capture's nudge uses, once per session like any lesson,
// and again (up to sayAgain times) each time its error comes back after
// it was said: the agent made the mistake the lesson is about anyway.
//
// Order and budget: the lessons on the error rank ahead of the call's
// own lessons (on an agent that reads those with the result, Gemini CLI),
// in one selection under one byte budget and lesson count: they answer
// what just happened. A nudge never shares an answer with them: it
// answers a success that fixed a failure, or a rejection, never a
// failure. And a failure a lesson on its error matches, claimed or not,
// is not kept for a fix's nudge: that lesson is already written.
//
// A success opens no manifest for this; a failure opens it once, for
// these lessons and for live capture's record together.

// failed handles a failed call: it finds the lessons on its error not
// yet claimed in the session (kept for outcomeLessons), and keeps a
// failure of a command family for live capture unless one matched. fam
// is zero for a call live capture does not follow.
func (r *run) failed(call Call, fam lessons.Family, out outcome) error {
	if fam.Exe == "" && out.text == "" {
		return nil // nothing to record, nothing to match
	}
	m, err := r.open()
	if err != nil {
		return err
	}
	defer m.Close()
	hits, err := r.match.MatchFailure(m, call, out.text)
	if err != nil {
		if !errors.Is(err, ErrTimeout) {
			return err
		}
		r.note("%v", err) // the lesson is skipped, the others go on
	}
	for _, h := range hits {
		e, err := m.Entry(h.Index)
		if err != nil {
			return err
		}
		again := r.sess.Claimed(e.Slug)
		if !again || r.cfg.Again() > 0 {
			r.onError = append(r.onError, Candidate{Entry: e, Trigger: h.Kinds, Again: again})
		}
	}
	rankCandidates(r.onError)
	r.failedCall = call
	if call.Tool != "Bash" || fam.Exe == "" {
		return nil
	}
	failed := lessons.FailedFamily(call.Command, out.errLine)
	if len(hits) > 0 {
		// The family's latest failure is one a lesson covers: its fix
		// answers this one, not an earlier one on record.
		_ = os.Remove(r.recordPath(failed.String()))
		return nil
	}
	if err := r.recordFailure(m, call, failed, out.errLine); err != nil {
		r.note("live capture: %v", err) // the lessons still go
	}
	return nil
}

// outcomeLessons is the text of the lessons on the failed call's error
// and, with toolLessons, of the call's own lessons, for agents that read
// them only with its result. A blocking lesson was answered before it.
func (r *run) outcomeLessons(toolLessons bool) (string, error) {
	cs, call := r.onError, r.failedCall
	if toolLessons {
		var injects []Candidate
		var m *Manifest
		var err error
		call, m, _, injects, err = r.matchCall()
		if err != nil {
			return "", err
		}
		defer m.Close()
		cs = append(cs, injects...)
	}
	about := describeCall(call)
	if len(r.onError) > 0 {
		about = aboutFailure(call)
	}
	return r.selectText(call.Tool, about, cs)
}

// aboutFailure names a failed call for the first line of its lessons,
// e.g. "after the error of this Bash call: cargo build".
func aboutFailure(c Call) string {
	return "after the error of " + strings.TrimPrefix(describeCall(c), "for ")
}
