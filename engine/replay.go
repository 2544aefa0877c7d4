package engine

import (
	"errors"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// Replay runs recorded tool calls through a manifest as the hook would
// have answered them: the same matcher, ranking, selection, byte budget
// and once-per-session claims, with the claims held in memory. It writes
// no session state and no event log. It is not safe for concurrent use;
// give each goroutine its own Replay over the same manifest.
type Replay struct {
	Manifest *Manifest
	// Config is the configuration the hook would apply (the manifest's,
	// with LESSONS_* variables on top).
	Config lessons.Config
	mt     Matcher
}

// Counters are what matching did so far, over every replayed call.
func (r *Replay) Counters() Counters { return r.mt.Counters }

// Fire is a lesson whose text reached the agent.
type Fire struct {
	Entry
	// Call is the index of the call that brought the lesson up.
	Call int
	// After: it came after the call, which failed (AfterFailure), not
	// before it.
	After bool
}

// Answer is what the hook did for one event of a replayed session.
type Answer struct {
	// Hits are the lessons whose triggers matched the call, claimed or
	// not, in manifest order.
	Hits []Hit
	// Block is the lesson that refused the call, or nil.
	Block *Entry
	// Fires are the lessons injected by this answer, and Bytes the size
	// of the text that carried them (0 when nothing was injected).
	Fires []Fire
	Bytes int
}

// ReplaySession is one replayed session's claims.
type ReplaySession struct {
	r *Replay
	// claims maps each injected lesson to its priority, which a
	// compaction compares with the threshold.
	claims map[string]int
	// hits remembers what each distinct call of the session matched:
	// agents repeat a third of their calls within a session, and the
	// same call always matches the same lessons.
	hits map[string][]Hit
}

// Session starts a replayed session. Every agent reads a call's lessons
// at the call, before it or with its result, so the agent does not
// matter.
func (r *Replay) Session() *ReplaySession {
	return &ReplaySession{r: r, claims: map[string]int{}, hits: map[string][]Hit{}}
}

// Call answers the session's call number i. A lesson whose regex timed
// out is left out, and the error (wrapping ErrTimeout) says so; the
// answer holds the rest.
func (s *ReplaySession) Call(i int, c Call) (Answer, error) {
	m := s.r.Manifest
	key := strings.Join(append(append([]string{c.Tool, c.Command}, c.Paths...), c.Contents...), "\x00")
	hits, seen := s.hits[key]
	var merr error
	if !seen {
		hits, merr = s.r.mt.Match(m, c)
		if merr != nil && !errors.Is(merr, ErrTimeout) {
			return Answer{}, merr
		}
		if merr == nil { // a timeout is the clock's verdict, not the call's
			s.hits[key] = hits
		}
	}
	ans := Answer{Hits: hits}
	var blocks, injects []Candidate
	for _, h := range hits {
		e, err := m.Entry(h.Index)
		if err != nil {
			return ans, err
		}
		cand := Candidate{Entry: e, Trigger: h.Kinds}
		switch _, claimed := s.claims[e.Slug]; {
		case e.Block:
			blocks = append(blocks, cand)
		case !claimed:
			injects = append(injects, cand)
		}
	}
	if len(blocks) > 0 {
		rankCandidates(blocks)
		top := blocks[0]
		for _, b := range blocks {
			if b.Decision == lessons.DecisionDeny {
				top = b
				break
			}
		}
		ans.Block = &top.Entry
		return ans, merr
	}
	rankCandidates(injects)
	var err error
	ans.Fires, ans.Bytes, err = s.inject(describeCall(c), injects, i)
	return ans, errors.Join(merr, err)
}

// Compact makes the lessons at or above the compaction threshold
// eligible again, as the hook does when a session's context is compacted.
func (s *ReplaySession) Compact() {
	for slug, prio := range s.claims {
		if prio >= s.r.Config.CompactionReinjectionThreshold {
			delete(s.claims, slug)
		}
	}
}

// inject selects among ranked candidates within the budget, claims them
// and returns them with the size of the text that carries them, as fired
// by call i. As in the hook, a tool's lessons give way to its aggregated
// text.
func (s *ReplaySession) inject(about string, cs []Candidate, i int) ([]Fire, int, error) {
	cfg := s.r.Config
	var members map[string][]string
	if cfg.InjectAggregates {
		aggs, err := s.r.Manifest.Aggregates()
		if err != nil {
			return nil, 0, err
		}
		cs, members = withAggregates(cs, aggs)
	}
	prio := map[string]int{}
	for _, c := range cs {
		prio[c.Slug] = c.Priority
	}
	sel := selectLessons(cs, cfg, func(slug string) bool {
		if _, claimed := s.claims[slug]; claimed {
			return false
		}
		s.claims[slug] = prio[slug]
		for _, member := range members[slug] {
			s.claims[member] = prio[slug]
		}
		return true
	})
	if len(sel.Injected) == 0 {
		return nil, 0, nil
	}
	fires := make([]Fire, len(sel.Injected))
	for k, p := range sel.Injected {
		fires[k] = Fire{Entry: p.Entry, Call: i}
	}
	return fires, len(injectionText(about, sel)), nil
}
