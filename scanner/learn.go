package scanner

import (
	"cmp"
	"maps"
	"slices"

	lessons "github.com/lessons-dev/lessons"
)

// Learner folds the candidates of sessions read one after the other, as
// successive scans would fold them into the candidate store, and scores
// them, without a store: a replay that learns as it goes asks it, at
// each session boundary, what a scan of the sessions so far would have
// proposed.
type Learner struct {
	weights Weights
	byID    map[string]*Candidate
	order   []string          // ids in the order first seen, for nearest
	pos     map[string]int    // an id's place in order
	alias   map[string]string // a folded candidate's id → the id it joined
	// calls and families index the held candidates for nearest, so that
	// a session's candidates are compared with the few held ones that
	// could be the same mistake, not with all: by failing call, and by
	// tool and command family of their failing examples.
	calls    map[string]string
	families map[string][]string
	// sample is the shell commands of the sessions seen so far, as a
	// scan samples them, for checking how broad a trigger is (broad.go);
	// heads indexes the held retry and precondition candidates by the
	// head of their command, and grown holds the heads whose sample grew
	// since the last Recheck.
	sample callSample
	heads  map[string][]string
	grown  map[string]bool
	// seen counts the sessions seen (Saw). folders holds the held folder
	// lessons with the count when each was learned; used, the folders
	// sessions used files in since the last Recheck; folderUses, by
	// lesson, the folders under its wrong folder used since it was
	// learned: one used in as many as the sessions it failed in is there
	// (callSample.usedFolder).
	seen       int64
	folders    map[string]int64
	folderUses map[string]map[string]bool
	used       map[string]int64
	// files holds the held lessons on a wrong file with the count when
	// each was learned: its path used in as many later sessions as it
	// failed in is there (callSample.workedIn).
	files map[string]int64
	// failures indexes the held lessons at a failure by tool and error
	// triggers, for foldKinds; folded holds the ids it changed since the
	// last Recheck.
	failures map[string][]string
	// steps indexes the held precondition fixes by step and command
	// (stepKey), for foldWordings.
	steps  map[string][]string
	folded []string
	// pending holds, by id, the support found for a candidate not held
	// yet: a scan of the sessions so far merges support in at its end,
	// whichever of them found the candidate, so a failure that came back
	// after a change before it was first seen before any change counts.
	pending map[string][]Candidate
}

// maxPending caps the support held for one id not found yet: past
// maxSupport sessions, more says nothing more.
const maxPending = maxSupport

// NewLearner starts with no candidates.
func NewLearner(w Weights) *Learner {
	return &Learner{weights: w, byID: map[string]*Candidate{}, pos: map[string]int{}, alias: map[string]string{},
		calls: map[string]string{}, families: map[string][]string{}, heads: map[string][]string{}, grown: map[string]bool{},
		failures: map[string][]string{}, steps: map[string][]string{}, pending: map[string][]Candidate{},
		folders: map[string]int64{}, folderUses: map[string]map[string]bool{}, used: map[string]int64{}, files: map[string]int64{}}
}

// familyKeys are the tool and command families of c's failing examples:
// a trigger of one candidate fires on another's example only where they
// name the same command.
func familyKeys(c *Candidate) []string {
	var keys []string
	for _, e := range c.Examples.Match {
		k := c.Tool
		if e.Command != "" {
			k += "|" + lessons.CommandFamily(e.Command).String()
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// index records what nearest looks c up by.
func (l *Learner) index(c *Candidate) {
	for _, p := range c.Provenance {
		if _, ok := l.calls[p.Call]; p.Call != "" && !ok {
			l.calls[p.Call] = c.ID
		}
	}
	for _, k := range familyKeys(c) {
		if !slices.Contains(l.families[k], c.ID) {
			l.families[k] = append(l.families[k], c.ID)
		}
	}
	if k := failureKey(c); k != "" && !slices.Contains(l.failures[k], c.ID) {
		l.failures[k] = append(l.failures[k], c.ID)
	}
	if k := stepKey(c); k != "" && !slices.Contains(l.steps[k], c.ID) {
		l.steps[k] = append(l.steps[k], c.ID)
	}
	if c.Kind == KindRetry || c.Kind == KindPrecondition {
		if h := headWords(c.Trigger); h != "" && !slices.Contains(l.heads[h], c.ID) {
			l.heads[h] = append(l.heads[h], c.ID)
		}
	}
	if _, ok := l.folders[c.ID]; !ok && c.Kind == KindPath && c.onFolder() {
		l.folders[c.ID] = l.seen
	}
	if _, ok := l.files[c.ID]; !ok && c.Kind == KindPath && !c.onFolder() {
		l.files[c.ID] = l.seen
	}
}

// Saw adds a session's shell commands to the sample a learned trigger is
// checked against, as a scan of the session would: a retry whose trigger
// fires on most calls of its command is narrowed to its error, or held
// below minConfidence, in a replay that learns as in a scan.
func (l *Learner) Saw(s *LoggedSession) {
	var cmds, dirs, files []string
	for i := range s.Calls {
		c := &s.Calls[i]
		if c.Command != "" && len(cmds) < sampleCallsPerFile {
			cmds = append(cmds, c.Command)
		}
		if d := fileFolder(&c.Call); d != "" && c.Outcome == OutcomeFine {
			if len(dirs) < sampleCallsPerFile {
				dirs = append(dirs, d)
			}
			if f := foundFile(&c.Call); f != "" && len(files) < sampleFilesPerFile {
				files = append(files, f)
			}
		}
	}
	l.sample.add(cmds, func(h string) { l.grown[h] = true })
	l.seen++
	l.sample.addFiles(files, l.seen, s.File)
	for _, d := range dirs {
		if len(l.used) < sampleFolders {
			l.used[d] = l.seen
		}
	}
}

// Recheck checks again, against the sample as it grew, the held retry
// and precondition candidates of the commands seen since the last call,
// as a scan of every session so far would check them: a trigger learned
// from an early session fires on most calls of its command once enough
// of them were seen. It returns the ids of those it narrowed to their
// error or held back.
func (l *Learner) Recheck() []string {
	var changed []string
	for _, h := range slices.Sorted(maps.Keys(l.grown)) {
		for _, id := range l.heads[h] {
			c := l.byID[id]
			if c == nil || c.Status != StatusNew || c.Signals.Broad || len(c.Triggers.Errors) > 0 {
				continue
			}
			if l.sample.check(c); c.Signals.Broad || len(c.Triggers.Errors) > 0 {
				l.weights.Score(c)
				l.index(c)
				l.fold(c)
				changed = append(changed, id)
			}
		}
	}
	clear(l.grown)
	for _, id := range slices.Sorted(maps.Keys(l.folders)) {
		c := l.byID[id]
		if c == nil || c.Status != StatusNew || c.Signals.Broad {
			continue
		}
		uses := l.folderUses[id]
		if uses == nil {
			uses = map[string]bool{}
			l.folderUses[id] = uses
		}
		usedFolders(c, l.used, l.folders[id], func(d string) { uses[d] = true })
		if len(uses) >= max(1, len(c.Sessions)) {
			c.Signals.Broad = true // a later session used a file in its folder
			l.weights.Score(c)
			changed = append(changed, id)
		}
	}
	clear(l.used)
	for _, id := range slices.Sorted(maps.Keys(l.files)) {
		c := l.byID[id]
		if c != nil && c.Status == StatusNew && l.sample.workedIn(c, l.files[id]) && c.Signals.Works {
			l.weights.Score(c) // later sessions used the file where it was not
			changed = append(changed, id)
		}
	}
	changed = append(changed, l.folded...)
	l.folded = l.folded[:0]
	return changed
}

// fold folds the held lessons of c's failure learned under two kinds
// (foldKinds), as a scan's merger does, and remembers the ids it changed
// for Recheck.
func (l *Learner) fold(c *Candidate) {
	if c.Kind == KindPath {
		l.foldPaths()
		return
	}
	l.foldIn(l.failures[failureKey(c)], foldKinds)
	l.foldIn(l.steps[stepKey(c)], foldWordings)
}

// foldIn folds the held candidates with these ids with fold, and
// remembers the ids it changed for Recheck.
func (l *Learner) foldIn(ids []string, fold func([]*Candidate) []*Candidate) {
	if len(ids) < 2 {
		return
	}
	group := make([]*Candidate, 0, len(ids))
	for _, id := range ids {
		group = append(group, l.byID[id])
	}
	for _, f := range fold(group) {
		l.weights.Score(f)
		if !slices.Contains(l.folded, f.ID) {
			l.folded = append(l.folded, f.ID)
		}
	}
}

// foldPaths folds the held lessons on wrong paths into the lessons on
// the wrong folders they lie under (foldFolders).
func (l *Learner) foldPaths() {
	var paths []*Candidate
	for _, id := range l.order {
		if c := l.byID[id]; c.Kind == KindPath {
			paths = append(paths, c)
		}
	}
	for _, f := range append(foldFolders(paths), foldShifts(paths)...) {
		l.weights.Score(f)
		if !slices.Contains(l.folded, f.ID) {
			l.folded = append(l.folded, f.ID)
		}
	}
}

// score checks a new or changed candidate's trigger against the sample,
// as a scan's merger does before it stores one, and scores it.
func (l *Learner) score(c *Candidate) {
	if c.Status == StatusNew {
		l.sample.check(c)
	}
	l.weights.Score(c)
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
		if old == nil && c.SupportOnly {
			l.hold(c) // support for a candidate not held yet
			continue
		}
		if old == nil {
			old = l.nearest(&c)
			if old != nil {
				l.alias[c.ID] = old.ID
				old.combine(c)
				l.support(old, c.ID)
				c.ID = old.ID
				l.score(old)
				l.index(old)
				changed = true
			}
		}
		if old == nil {
			c := c
			l.support(&c, c.ID)
			c.retext() // as a scan writes every candidate it changed
			l.score(&c)
			l.byID[c.ID] = &c
			l.pos[c.ID] = len(l.order)
			l.order = append(l.order, c.ID)
			l.index(&c)
			l.fold(&c)
			changed = true
			continue
		}
		old.foldError(c)
		if old.merge(c) {
			old.retext()
			l.score(old)
			l.index(old)
			l.fold(old)
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
	if c.keyed() {
		return nil
	}
	var ids []string
	for _, p := range c.Provenance {
		if id, ok := l.calls[p.Call]; p.Call != "" && ok {
			ids = append(ids, id)
		}
	}
	for _, k := range familyKeys(c) {
		ids = append(ids, l.families[k]...)
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(l.pos[a], l.pos[b]) })
	for _, id := range slices.Compact(ids) {
		if o := l.byID[id]; o.Tool == c.Tool && !o.keyed() && sameMistake(o, c) {
			return o
		}
	}
	return nil
}

// hold keeps support for a candidate not held yet: its occurrence and
// signals, all that merge reads of it.
func (l *Learner) hold(c Candidate) {
	if len(l.pending[c.ID]) < maxPending {
		l.pending[c.ID] = append(l.pending[c.ID], Candidate{Kind: c.Kind, Solution: c.Solution,
			Provenance: c.Provenance, Signals: c.Signals, LastSeen: c.LastSeen})
	}
}

// support merges into c the support held for id, found before c was.
func (l *Learner) support(c *Candidate, id string) {
	held := l.pending[id]
	if len(held) == 0 {
		return
	}
	delete(l.pending, id)
	merged := false
	for _, p := range held {
		merged = c.merge(p) || merged
	}
	if merged {
		c.retext()
	}
}
