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
	// memo remembers what calls matched in each extra manifest across
	// sessions: an extra never changes, and the same calls come back
	// session after session.
	memo map[*Manifest]map[string][]Hit
}

// maxMemo caps the calls remembered per extra manifest.
const maxMemo = 4096

// Forget drops what the replay remembers of an extra manifest no
// session will use again.
func (r *Replay) Forget(m *Manifest) { delete(r.memo, m) }

// Counters are what matching did so far, over every replayed call.
func (r *Replay) Counters() Counters { return r.mt.Counters }

// Fire is a lesson whose text reached the agent.
type Fire struct {
	Entry
	// Call is the index of the call that brought the lesson up.
	Call int
	// After is set for a lesson that reached the agent with the call's
	// failure (its error triggers matched what the call printed), not
	// before the call.
	After bool
}

// Extra is a manifest whose lessons join the replay's own as if they had
// been compiled together: a replay that learns as it goes compiles what
// it learns apart, so that adding a lesson does not recompile the rest.
type Extra struct {
	Manifest *Manifest
	// Skip reports the entries to leave out (a lesson learned again in
	// another form since); nil keeps them all.
	Skip func(i int) bool
}

// Answer is what the hook did for one event of a replayed session.
type Answer struct {
	// Matched are the lessons whose triggers matched the call, claimed
	// or not: the replay's manifest's in its order, then the extras'.
	Matched []Entry
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
	hits  map[string][]Candidate
	extra []Extra
	// again counts the times each lesson was said again (sayAgain).
	again map[string]int
}

// Session starts a replayed session, with the lessons of extra beside
// the manifest's. Every agent reads a call's lessons at the call, before
// it or with its result, so the agent does not matter.
func (r *Replay) Session(extra ...Extra) *ReplaySession {
	return &ReplaySession{r: r, claims: map[string]int{}, hits: map[string][]Candidate{}, extra: extra, again: map[string]int{}}
}

// Call answers the session's call number i. A lesson whose regex timed
// out is left out, and the error (wrapping ErrTimeout) says so; the
// answer holds the rest.
func (s *ReplaySession) Call(i int, c Call) (Answer, error) {
	key := strings.Join(append(append([]string{c.Tool, c.Command}, c.Paths...), c.Contents...), "\x00")
	hits, seen := s.hits[key]
	var merr error
	if !seen {
		var err error
		if hits, merr, err = s.match(key, c); err != nil {
			return Answer{}, err
		}
		if merr == nil { // a timeout is the clock's verdict, not the call's
			s.hits[key] = hits
		}
	}
	ans := Answer{}
	var blocks, injects, extras []Candidate
	for _, cand := range hits {
		ans.Matched = append(ans.Matched, cand.Entry)
		_, claimed := s.claims[cand.Slug]
		switch {
		case cand.Block:
			blocks = append(blocks, cand)
		case claimed:
		case cand.Index != extraIndex:
			injects = append(injects, cand)
		default:
			extras = append(extras, cand)
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
	var err error
	ans.Fires, ans.Bytes, err = s.inject(describeCall(c), injects, extras, i)
	return ans, errors.Join(merr, err)
}

// match finds the lessons of the manifest and the extras that match c;
// merr wraps ErrTimeout when a regex ran out of time, err is anything
// worse. An extra's entry is marked by an Index past the manifest's.
func (s *ReplaySession) match(key string, c Call) (hits []Candidate, merr, err error) {
	for k := -1; k < len(s.extra); k++ {
		m, skip := s.r.Manifest, func(int) bool { return false }
		if k >= 0 {
			m, skip = s.extra[k].Manifest, s.extra[k].Skip
			if skip == nil {
				skip = func(int) bool { return false }
			}
		}
		hs, e := s.r.matchMemo(m, k >= 0, key, c)
		if e != nil && !errors.Is(e, ErrTimeout) {
			return nil, nil, e
		}
		merr = errors.Join(merr, e)
		for _, h := range hs {
			if skip(h.Index) {
				continue
			}
			en, e := m.Entry(h.Index)
			if e != nil {
				return nil, nil, e
			}
			if k >= 0 {
				en.Index = extraIndex
			}
			hits = append(hits, h.candidate(en))
		}
	}
	return hits, merr, nil
}

// matchMemo matches c, whose key is key, against m, remembering the
// hits of an extra manifest.
func (r *Replay) matchMemo(m *Manifest, extra bool, key string, c Call) ([]Hit, error) {
	if !extra {
		return r.mt.Match(m, c)
	}
	memo := r.memo[m]
	if hs, ok := memo[key]; ok {
		return hs, nil
	}
	hs, err := r.mt.Match(m, c)
	if err != nil {
		return hs, err // a timeout is the clock's verdict, not the call's
	}
	if memo == nil {
		if r.memo == nil {
			r.memo = map[*Manifest]map[string][]Hit{}
		}
		memo = map[string][]Hit{}
		r.memo[m] = memo
	}
	if len(memo) < maxMemo {
		memo[key] = hs
	}
	return hs, nil
}

// extraIndex marks an extra manifest's entry: the replay's manifest's
// aggregates know nothing of it.
const extraIndex = -1

// Compact makes the lessons at or above the compaction threshold
// eligible again, as the hook does when a session's context is compacted.
func (s *ReplaySession) Compact() {
	for slug, prio := range s.claims {
		if prio >= s.r.Config.CompactionReinjectionThreshold {
			delete(s.claims, slug)
		}
	}
}

// inject selects among the candidates of the manifest and of the
// extras within the budget, claims them and returns them with the size
// of the text that carries them, as fired by call i. As in the hook, a
// tool's lessons give way to its aggregated text.
func (s *ReplaySession) inject(about string, cs, extras []Candidate, i int) ([]Fire, int, error) {
	cfg := s.r.Config
	rankCandidates(cs)
	var members map[string][]string
	if cfg.InjectAggregates {
		aggs, err := s.r.Manifest.Aggregates()
		if err != nil {
			return nil, 0, err
		}
		cs, members = withAggregates(cs, aggs)
	}
	if len(extras) > 0 {
		cs = append(cs, extras...)
		rankCandidates(cs)
	}
	prio := map[string]int{}
	for _, c := range cs {
		prio[c.Slug] = c.Priority
	}
	sel := selectLessons(cs, cfg, func(c Candidate) bool {
		slug := c.Slug
		if c.Again {
			if s.again[slug] >= cfg.Again() {
				return false
			}
			s.again[slug]++
			return true
		}
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
