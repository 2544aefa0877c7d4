package replay

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
)

// tally is one lesson's figures in one session, or summed over many.
type tally struct {
	matches, fires, beforeFailed, beforeFine, beforeRejected, blocks, caught, sessions int
	// afterFailed counts fires after a failed call, of lessons on its error.
	afterFailed int
}

func (t *tally) add(o *tally) {
	t.matches += o.matches
	t.fires += o.fires
	t.beforeFailed += o.beforeFailed
	t.afterFailed += o.afterFailed
	t.beforeFine += o.beforeFine
	t.beforeRejected += o.beforeRejected
	t.blocks += o.blocks
	t.caught += o.caught
	t.sessions += o.sessions
}

// failure is one failed call, for the learning curve: its family and
// error class, and the lessons that caught it.
type failure struct {
	key      string
	caughtBy []string
}

// sessionResult is what replaying one session gave.
type sessionResult struct {
	agent, project                  string
	calls, failed, rejected, blocks int
	injections                      int
	bytes                           int64
	refused                         []Refused
	lessons                         map[string]*tally
	// fineTools counts the calls that went fine, per tool: the calls a
	// lesson of that tool could have matched.
	fineTools map[string]int
	timeouts  int
	errs      []string
	failures  []failure
}

func (r *sessionResult) lesson(slug string) *tally {
	t := r.lessons[slug]
	if t == nil {
		t = &tally{}
		r.lessons[slug] = t
	}
	return t
}

// toCall is a logged call as triggers see it.
func toCall(c *scanner.LoggedCall) engine.Call {
	call := engine.Call{Tool: c.Tool, Command: c.Command}
	if c.Path != "" {
		call.Paths = []string{filepath.ToSlash(c.Path)}
	}
	if c.Input != "" {
		call.Contents = []string{c.Input}
	}
	return call
}

// simulate replays one session through rp, whose manifest's lessons are
// named by slugs (by index). A fire counts for the call that brought
// the lesson up; on an agent that reads lessons only with the next
// prompt, a lesson that no prompt delivered never fired.
// With learn set it lists the session's failures for the learning curve.
func simulate(s *scanner.LoggedSession, rp *engine.Replay, slugs []string, learn bool) *sessionResult {
	r := &sessionResult{agent: s.Agent, project: s.Project, lessons: map[string]*tally{}, fineTools: map[string]int{}}
	rs := rp.Session()
	hits := make([][]int, len(s.Calls))
	fired := make([][]string, len(s.Calls))
	after := make([][]string, len(s.Calls)) // lessons on the error of a failed call
	deliver := func(ans engine.Answer) {
		if len(ans.Fires) == 0 {
			return
		}
		r.injections++
		r.bytes += int64(ans.Bytes)
		for _, f := range ans.Fires {
			fired[f.Call] = append(fired[f.Call], f.Slug)
		}
	}
	for i := range s.Calls {
		c := &s.Calls[i]
		if c.AfterCompaction {
			rs.Compact()
		}
		ans, err := rs.Call(i, toCall(c))
		r.note(s, c, err)
		for _, h := range ans.Hits {
			hits[i] = append(hits[i], h.Index)
			r.lesson(slugs[h.Index]).matches++
		}
		if b := ans.Block; b != nil {
			r.blocks++
			r.lesson(b.Slug).blocks++
			fired[i] = append(fired[i], b.Slug)
			r.refused = append(r.refused, Refused{Slug: b.Slug, Agent: s.Agent, File: s.File, Line: c.Line,
				Tool: c.Tool, Call: callText(c), Outcome: c.Outcome.String()})
		}
		deliver(ans)
		after[i] = r.afterFailure(rs, s, c, i, slugs)
		r.calls++
		switch c.Outcome {
		case scanner.OutcomeFailed:
			r.failed++
		case scanner.OutcomeRejected:
			r.rejected++
		case scanner.OutcomeFine:
			r.fineTools[c.Tool]++
		}
	}
	seen := map[string]bool{}
	for i, fs := range fired {
		c := &s.Calls[i]
		for _, slug := range after[i] {
			t := r.lesson(slug)
			t.fires++
			t.afterFailed++
			if !seen[slug] {
				seen[slug] = true
				t.sessions++
			}
		}
		var caughtBy []string
		for _, slug := range fs {
			t := r.lesson(slug)
			t.fires++
			if !seen[slug] {
				seen[slug] = true
				t.sessions++
			}
			switch c.Outcome {
			case scanner.OutcomeFailed:
				t.beforeFailed++
				if c.Fix < 0 || !slices.ContainsFunc(hits[c.Fix], func(k int) bool { return slugs[k] == slug }) {
					t.caught++
					caughtBy = append(caughtBy, slug)
				}
			case scanner.OutcomeFine:
				t.beforeFine++
			case scanner.OutcomeRejected:
				t.beforeRejected++
			}
		}
		if learn && c.Outcome == scanner.OutcomeFailed {
			r.failures = append(r.failures, failure{key: c.Family() + " | " + c.ErrorClass(), caughtBy: caughtBy})
		}
	}
	return r
}

// note counts a regex that timed out, and keeps any other error with
// the call it met.
func (r *sessionResult) note(s *scanner.LoggedSession, c *scanner.LoggedCall, err error) {
	switch {
	case err == nil:
	case errors.Is(err, engine.ErrTimeout):
		r.timeouts++
	default:
		r.errs = append(r.errs, fmt.Sprintf("%s:%d: %v", s.File, c.Line, err))
	}
}

// callText is what a refused call did, in a line.
func callText(c *scanner.LoggedCall) string {
	if c.Command != "" {
		return c.Command
	}
	return c.Path
}
