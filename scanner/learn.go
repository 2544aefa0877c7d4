package scanner

// Learner folds the candidates of sessions read one after the other, as
// successive scans would fold them into the candidate store, and scores
// them, without a store: a replay that learns as it goes asks it, at
// each session boundary, what a scan of the sessions so far would have
// proposed.
type Learner struct {
	weights Weights
	byID    map[string]*Candidate
}

// NewLearner starts with no candidates.
func NewLearner(w Weights) *Learner { return &Learner{weights: w, byID: map[string]*Candidate{}} }

// Add folds in one session's candidates and reports whether any
// candidate is new or changed.
func (l *Learner) Add(cs []Candidate) bool {
	changed := false
	for _, c := range cs {
		old := l.byID[c.ID]
		if old == nil {
			c := c
			l.weights.Score(&c)
			l.byID[c.ID] = &c
			changed = true
			continue
		}
		if old.merge(c) {
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
