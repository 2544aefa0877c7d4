package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Lessons on an error (triggers.errors) answer a failed call, after it:
// they are in no tool index, no prompt's terms, no aggregate and no
// session start, so nothing before a call can bring them up. The errors
// section lists them, each with what the outcome events need to rule it
// out without reading its record:
//
//	count, then per lesson: index delta, its implied tools (none: any
//	tool), its error patterns (source and prefilter, as in a record)
//
// A failed call reads the section, tests each lesson's tools and the
// literals of its patterns, runs the regexes left on what the call
// printed, and only then the lesson's other triggers, which must match
// the failed call too.

// errorLesson is a lesson with error triggers, as Compile writes it.
type errorLesson struct {
	index    int
	tools    []string
	patterns []pattern
}

func encodeErrorLessons(e *encoder, ls []errorLesson) {
	e.int(len(ls))
	prev := 0
	for _, l := range ls {
		e.int(l.index - prev)
		prev = l.index
		e.strs(l.tools)
		e.int(len(l.patterns))
		for _, p := range l.patterns {
			e.str(p.src)
			encodePrefilter(e, p)
		}
	}
}

// MatchFailure returns the lessons with error triggers that match a
// failed call c, which printed output: a pattern of theirs is found in
// the output (see FailureText for how much of it), their tools name the
// call's (or they name none), and their other triggers, when set, match
// the call. A lesson whose regex times out is skipped and named in the
// error (wrapping ErrTimeout), with the other hits still returned.
func (mt *Matcher) MatchFailure(m *Manifest, c Call, output string) ([]Hit, error) {
	mt.spent = 0
	d := decoder{b: m.data, off: m.sec[secErrors]}
	n := d.count()
	if n == 0 || output == "" {
		return nil, d.err
	}
	text := []byte(output)
	texts, lowers := [][]byte{text}, [][]byte{bytes.ToLower(text)}
	s := newSubject(&c)
	var hits []Hit
	var errs []error
	prev := 0
	for ; n > 0 && d.err == nil; n-- {
		prev += d.int()
		i := prev
		tools := d.strs()
		mt.Counters.Considered++
		start := len(mt.live)
		passed := mt.collect(&d, texts, lowers, len(tools) == 0 || toolMatches(tools, c.Tool))
		if passed <= 0 {
			mt.live = mt.live[:start]
			mt.Counters.Prefiltered++
			continue
		}
		live := append([][]byte(nil), mt.live[start:]...)
		mt.live = mt.live[:start]
		ok, err := mt.search(live, []string{output})
		if err == nil && ok {
			var kinds string
			if kinds, err = mt.matchRest(m, i, s); kinds != "" {
				hits = append(hits, Hit{Index: i, Kinds: kinds})
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("lesson %s: %w", m.slug(i), err))
		}
	}
	if d.err != nil {
		return hits, errCorrupt
	}
	return hits, errors.Join(errs...)
}

// matchRest matches a lesson's triggers other than errors against the
// failed call: "errors" when it has none, "errors+commands" and the like
// when they match, "" when they do not.
func (mt *Matcher) matchRest(m *Manifest, i int, s *subject) (string, error) {
	rec, err := m.part(i, 0)
	if err != nil {
		return "", err
	}
	mt.Counters.Considered-- // matchRecord counts it again
	kinds, err := mt.matchRecord(rec, s)
	switch {
	case err != nil || kinds == "":
		return "", err
	case kinds == "tools":
		return "errors", nil
	}
	return "errors+" + kinds, nil
}

// slug names lesson i for an error message.
func (m *Manifest) slug(i int) string {
	if e, err := m.Entry(i); err == nil {
		return e.Slug
	}
	return "#" + fmt.Sprint(i)
}

// matchLessonError decides a lesson with error triggers on an example:
// the example must carry the error text it printed, and the lesson is
// compiled into a manifest of its own so that the hook's reading of the
// errors section decides it.
func matchLessonError(l *lessons.Lesson, c lessons.ToolCall) (bool, error) {
	if strings.TrimSpace(c.Error) == "" {
		return false, nil // a lesson on an error never comes before a call
	}
	man, err := Compile(scope.Merged{Active: []scope.Resolved{{Lesson: *l, Scope: lessons.ScopeGlobal}}}, scope.Stamp{})
	if err != nil {
		return false, err
	}
	if w := man.Warnings(); len(w) > 0 {
		return false, w[0]
	}
	var mt Matcher
	hits, err := mt.MatchFailure(man, CallOf(c), FailureText(c.Error))
	return len(hits) > 0, err
}
