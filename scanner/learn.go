package scanner

// Learner folds the candidates of sessions read one after the other, as
// successive scans would fold them into the candidate store, and scores
// them, without a store: a replay that learns as it goes asks it, at
// each session boundary, what a scan of the sessions so far would have
// proposed.
type Learner struct {
	weights Weights
	byID    map[string]*Candidate
	order   []string          // ids in the order first seen, for nearest
	alias   map[string]string // a folded candidate's id → the id it joined
}

// NewLearner starts with no candidates.
func NewLearner(w Weights) *Learner {
	return &Learner{weights: w, byID: map[string]*Candidate{}, alias: map[string]string{}}
}

// Resolve is the id under which the candidate with this id is held: its
// own, or that of the candidate it was folded into.
func (l *Learner) Resolve(id string) string {
	if to, ok := l.alias[id]; ok {
		return to
	}
	return id
}

// Add folds in one session's candidates and reports whether any
// candidate is new or changed. A candidate that is the same mistake as
// one already held (sameMistake) is folded into it, as a scan folds it
// into the store: the agent's own words win over a heuristic's.
func (l *Learner) Add(cs []Candidate) bool {
	changed := false
	for _, c := range cs {
		old := l.byID[l.Resolve(c.ID)]
		if old == nil {
			old = l.nearest(&c)
			if old != nil {
				l.alias[c.ID] = old.ID
				old.combine(c)
				c.ID = old.ID
				l.weights.Score(old)
				changed = true
			}
		}
		if old == nil {
			c := c
			l.weights.Score(&c)
			l.byID[c.ID] = &c
			l.order = append(l.order, c.ID)
			changed = true
			continue
		}
		if old.merge(c) {
			if old.Kind == KindKnown {
				old.knownText()
			}
			l.weights.Score(old)
			changed = true
		}
	}
	return changed
}

// Candidate is the scored candidate with this id, as folded so far.
func (l *Learner) Candidate(id string) (Candidate, bool) {
	c := l.byID[id]
	if c == nil {
		return Candidate{}, false
	}
	return *c, true
}

// nearest is the candidate held that c repeats, in the order first seen,
// or nil.
func (l *Learner) nearest(c *Candidate) *Candidate {
	if c.Kind == KindKnown {
		return nil
	}
	for _, id := range l.order {
		if o := l.byID[id]; o.Tool == c.Tool && o.Kind != KindKnown && sameMistake(o, c) {
			return o
		}
	}
	return nil
}
