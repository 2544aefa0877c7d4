package scanner

// Learner folds the candidates of sessions read one after the other, as
// successive scans would fold them into the candidate store, and scores
// them, without a store: a replay that learns as it goes asks it, at
// each session boundary, what a scan of the sessions so far would have
// proposed.
type Learner struct {
	weights Weights
	byID    map[string]*Candidate
	order   []string
}

// NewLearner starts with no candidates.
func NewLearner(w Weights) *Learner { return &Learner{weights: w, byID: map[string]*Candidate{}} }

// Add folds in one session's candidates and reports whether any
// candidate is new or changed. A candidate that is the same mistake as
// one already held (sameMistake) is folded into it, as a scan folds it
// into the store: the agent's own words win over a heuristic's.
func (l *Learner) Add(cs []Candidate) bool {
	changed := false
	for _, c := range cs {
		old := l.byID[c.ID]
		if old == nil {
			old = l.nearest(&c)
			if old != nil {
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

// Candidates are the scored candidates so far, in the order first seen.
func (l *Learner) Candidates() []Candidate {
	out := make([]Candidate, len(l.order))
	for i, id := range l.order {
		out[i] = *l.byID[id]
	}
	return out
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
