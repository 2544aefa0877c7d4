package replay

import (
	"errors"
	"fmt"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// sessionResult is what replaying one session gave: its calls and
// typed prompts as the trace holds them, and what went wrong on the way.
type sessionResult struct {
	agent, project string
	calls          []TraceCall
	prompts        []TracePrompt
	refused        []Refused
	timeouts       int
	errs           []string
	// promptTally counts the typed prompts replayed; nextPrompt is the
	// first not replayed yet.
	promptTally promptTally
	nextPrompt  int
	// copyKeys are the calls' copy keys (keysOf), for a session replayed
	// before its order was known; nil when its copies were marked first.
	copyKeys []string
}

// learnedInfo is what the replay knows of a learned lesson: the failed
// calls it was learned from and their keys.
type learnedInfo struct {
	refs []CallRef
	keys map[string]bool
}

// simEnv is what a session is replayed through.
type simEnv struct {
	rp *engine.Replay
	// extra are the learned lessons that apply to the session's
	// project, compiled apart from the manifest.
	extra []engine.Extra
	// learned is the learned lesson of a slug, nil for any other.
	learned func(slug string) *learnedInfo
	// failures holds, by slug, the patterns of the lessons that say
	// which failures they address (Lesson.Addresses).
	failures map[string][]*lessons.Pattern
}

// failurePatterns compiles the Addresses of the lessons that have them;
// a pattern that does not compile is left out (validation names it).
func failurePatterns(rs []scope.Resolved) map[string][]*lessons.Pattern {
	out := map[string][]*lessons.Pattern{}
	for i := range rs {
		for _, src := range rs[i].Addresses {
			if p, err := lessons.CompilePattern(src); err == nil {
				out[rs[i].Slug] = append(out[rs[i].Slug], p)
			}
		}
	}
	return out
}

// toCall is a logged call as triggers see it.
func toCall(c *scanner.LoggedCall) engine.Call {
	call := engine.Call{Tool: c.Tool, Command: c.Command, Background: c.Background}
	if c.Path != "" {
		call.Paths = []string{engine.CallPath("", c.Path)}
	}
	if c.Input != "" {
		call.Contents = []string{c.Input}
	}
	return call
}

// simulate replays one session: what matched each call, what fired
// before it, what reached the agent with its failure, whether each fire
// came before a failure its lesson addresses, and the verdict of each
// failed call a learned lesson fired on. A call copied from an earlier
// log (copied[i]; copied may be nil) is not replayed. Repeats need the
// sessions before it and are the caller's.
func simulate(s *scanner.LoggedSession, env simEnv, copied []bool) *sessionResult {
	r := &sessionResult{agent: s.Agent, project: s.Project, calls: make([]TraceCall, len(s.Calls))}
	rs := env.rp.Session(env.extra...)
	for i := range s.Calls {
		c := &s.Calls[i]
		if c.AfterCompaction {
			rs.Compact()
		}
		r.replayPrompts(rs, s, env, i)
		tc := &r.calls[i]
		*tc = TraceCall{Kind: traceKindCall, File: s.File, Session: s.ID, Project: s.Project, Agent: s.Agent, Index: i, Line: c.Line,
			Tool: c.Tool, Command: clipBytes(callText(c), maxTraceCommand), Outcome: c.Outcome.String(),
			Family: c.Family(), Class: c.ErrorClass(), Matched: []string{}, Fired: []TraceFire{}}
		if copied != nil && copied[i] {
			tc.Copy = true
			continue
		}
		ans, err := rs.Call(i, toCall(c))
		r.note(s, c, err)
		for _, e := range ans.Matched {
			tc.Matched = append(tc.Matched, e.Slug)
		}
		if b := ans.Block; b != nil {
			tc.Fired = append(tc.Fired, env.fire(b, "before", string(b.Decision)))
			r.refused = append(r.refused, Refused{Slug: b.Slug, Agent: s.Agent, File: s.File, Line: c.Line,
				Tool: c.Tool, Call: scanner.Redact(callText(c)), Outcome: c.Outcome.String()})
		}
		for _, f := range ans.Fires {
			tc.Fired = append(tc.Fired, env.fire(&f.Entry, "before", ""))
		}
		tc.InjectedBytes = ans.Bytes
		if c.Outcome == scanner.OutcomeFailed && ans.Block == nil {
			if out := c.ErrorText(); out != "" {
				after, err := rs.AfterFailure(i, toCall(c), out)
				r.note(s, c, err)
				for _, f := range after.Fires {
					tc.Fired = append(tc.Fired, env.fire(&f.Entry, "after", ""))
				}
				tc.InjectedBytes += after.Bytes
			}
		}
	}
	r.replayPrompts(rs, s, env, len(s.Calls))
	for i := range r.calls {
		tc := &r.calls[i]
		for k := range tc.Fired {
			tc.Fired[k].Addresses = env.addresses(s, r.calls, i, &tc.Fired[k])
		}
		tc.Verdict = verdict(tc)
	}
	return r
}

// fire is a lesson's fire as the trace shows it.
func (env simEnv) fire(e *engine.Entry, at, refused string) TraceFire {
	f := TraceFire{Slug: e.Slug, Kind: string(e.Kind), At: at, Refused: refused, LearnedFrom: []CallRef{}}
	if env.learned != nil {
		if l := env.learned(e.Slug); l != nil {
			f.Provisional, f.LearnedFrom = true, l.refs
		}
	}
	return f
}

// addresses reports whether fire f at call i of session s came before a
// failure its lesson addresses: for a learned lesson, the call failed and
// its key is the key of a failure the lesson was learned from, or the
// lesson came with the failure (its error trigger matched what the call
// printed) and the call shares a family or a class with one it was
// learned from (learnedInfo.near): the class
// read from the first error line drifts with what else the output
// printed (another address, another module of the same missing build),
// the error trigger is the lesson's own reading of "the same error"; for a
// hazard, never (hazards are judged by what they refused); for a fire
// with the failure (on the lesson's error triggers), always; for any
// other lesson, the call failed, or the next call of the same family in
// the session did, and when the lesson says which failures it addresses
// (Lesson.Addresses), that failure printed one of them.
func (env simEnv) addresses(s *scanner.LoggedSession, calls []TraceCall, i int, f *TraceFire) bool {
	c := &calls[i]
	switch {
	case f.Provisional:
		l := env.learned(f.Slug)
		return c.Outcome == "failed" && l != nil && (l.keys[failureKey(c)] || f.At == "after" && l.near(c))
	case f.Kind == string(lessons.KindHazard):
		return false
	case f.At == "after":
		return true
	}
	j := i
	if c.Outcome != "failed" {
		for j = i + 1; j < len(calls) && calls[j].Family != c.Family; j++ {
		}
		if j == len(calls) || calls[j].Outcome != "failed" {
			return false
		}
	}
	pats := env.failures[f.Slug]
	if len(pats) == 0 {
		return true
	}
	out := engine.FailureText(s.Calls[j].ErrorText())
	for _, p := range pats {
		if ok, _ := p.MatchString(out); ok {
			return true
		}
	}
	return false
}

// verdict is a failed call's verdict from the learned lessons that
// reached the agent at it.
func verdict(c *TraceCall) string {
	if c.Outcome != "failed" {
		return ""
	}
	var before, after, other bool
	for _, f := range c.Fired {
		switch {
		case !f.Provisional:
		case f.Addresses && f.At == "before":
			before = true
		case f.Addresses:
			after = true
		case f.At == "before":
			other = true
		}
	}
	switch {
	case before:
		return VerdictPrevented
	case after:
		return VerdictShortened
	case other:
		return VerdictUnrelated
	}
	return ""
}

// near reports whether a failure shares its family or its class with
// one the lesson was learned from: the same command failing on another
// line, or the same refusal of another file tool on the folder.
func (l *learnedInfo) near(c *TraceCall) bool {
	for k := range l.keys {
		if f, class, _ := strings.Cut(k, " | "); f == c.Family || class == c.Class {
			return true
		}
	}
	return false
}

// failureKey is what a failure repeats: its family and class.
func failureKey(c *TraceCall) string { return c.Family + " | " + c.Class }

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

// callText is what a call did, in a line: its command, else its path.
func callText(c *scanner.LoggedCall) string {
	if c.Command != "" {
		return c.Command
	}
	return c.Path
}

// clipBytes cuts s to at most n bytes on a rune boundary, marking the
// cut.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
