package scanner

import (
	"maps"
	"slices"

	"github.com/lessons-dev/lessons"
)

// merger folds a scan's findings into the candidate store. It loads the
// store only once something was found, so a scan of unchanged files does
// not read it.
type merger struct {
	store   *Store
	weights Weights
	// known returns the active lessons of every scope, asked once and
	// only when a new candidate might repeat one.
	known     func() []lessons.Lesson
	knownList []lessons.Lesson
	knownRead bool
	loaded    bool
	sample    callSample
	// merged counts the files merged, oldest first: a file's place in
	// that order is its time (files written in the same second keep
	// their order). since is, for a candidate found in this scan, the
	// place of the first file it was found in: a folder or a file used
	// in a later one is there.
	merged int64
	since  map[string]int64
	// wrongFiles are the paths listed wrong file lessons failed on, as
	// the last scan that loaded the store left them (wrongfiles.go).
	wrongFiles map[string]bool
	byID       map[string]*Candidate
	dirty      map[string]bool
	// support holds the scan's SupportOnly candidates, merged at the end
	// so that the order the files were read in does not matter.
	support []Candidate
	found   int
	created int
	updated int
}

func (m *merger) load() error {
	if m.loaded {
		return nil
	}
	all, err := m.store.load()
	if err != nil {
		return err
	}
	m.byID, m.dirty, m.since, m.loaded = map[string]*Candidate{}, map[string]bool{}, map[string]int64{}, true
	for i := range all {
		m.byID[all[i].ID] = &all[i]
	}
	return nil
}

func (m *merger) merge(r fileResult) error {
	m.sample.add(r.commands, nil)
	m.merged++
	m.sample.addFolders(r.folders, m.merged)
	m.sample.addFiles(r.used, m.merged, r.path)
	if len(r.found) == 0 {
		if !m.loaded && m.usesWrongFile(r.used) {
			return m.load() // a wrong file's lesson may be held (write)
		}
		return nil
	}
	if err := m.load(); err != nil {
		return err
	}
	for _, c := range r.found {
		if c.SupportOnly {
			m.support = append(m.support, c)
			continue
		}
		m.found++
		old, ok := m.byID[c.ID]
		if !ok {
			old, ok = m.nearest(&c)
		}
		if !ok {
			c := c
			m.byID[c.ID] = &c
			m.dirty[c.ID] = true
			m.created++
			m.since[c.ID] = m.merged
			continue
		}
		if _, seen := m.since[old.ID]; !seen {
			// found again: a full scan reads its first failure again, and
			// a use before that says nothing
			m.since[old.ID] = m.merged
		}
		if c.ID != old.ID && (old.Status == StatusNew || old.Status == StatusDuplicate) {
			old.combine(c)
			m.dirty[old.ID] = true
		}
		c.ID = old.ID
		old.foldError(c)
		if old.merge(c) {
			if !m.dirty[c.ID] {
				m.updated++
			}
			m.dirty[c.ID] = true
		}
	}
	return nil
}

// nearest returns the candidate that c repeats: one of the store's
// (same mistake, whatever its status), else the record of an active
// lesson c repeats, created if needed. Candidates are tried in id order,
// so the outcome does not depend on the order files were read.
func (m *merger) nearest(c *Candidate) (*Candidate, bool) {
	if c.keyed() {
		return nil, false // one per project, family and class: its id says it
	}
	ids := make([]string, 0, len(m.byID))
	for id, o := range m.byID {
		if o.Status != StatusDuplicate && o.Tool == c.Tool && !o.keyed() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		if sameMistake(m.byID[id], c) {
			return m.byID[id], true
		}
	}
	if m.known == nil {
		return nil, false
	}
	if !m.knownRead {
		m.knownList, m.knownRead = m.known(), true
	}
	for i := range m.knownList {
		l := &m.knownList[i]
		if !repeats(c, l) {
			continue
		}
		d := duplicateOf(*c, l)
		if old, ok := m.byID[d.ID]; ok {
			return old, true
		}
		m.byID[d.ID] = &d
		m.dirty[d.ID] = true
		return &d, true
	}
	return nil, false
}

// write scores and stores every candidate the scan changed, once the
// support found for candidates the store holds is merged in.
func (m *merger) write() error {
	for _, c := range m.support {
		if old, ok := m.byID[c.ID]; ok && old.merge(c) {
			if !m.dirty[c.ID] {
				m.updated++
			}
			m.dirty[c.ID] = true
		}
	}
	for id, c := range m.byID {
		// a wrong file's lesson of an earlier scan too: this scan's files
		// are later than its failures
		if c.Status == StatusNew && m.sample.workedIn(c, m.since[id]) {
			m.dirty[id] = true
		}
	}
	for id := range m.dirty {
		if c := m.byID[id]; c.Status == StatusNew {
			if m.sample.usedFolder(c, m.since[id]) {
				c.Signals.Broad = true // a folder lesson on a folder a later call used
			}
			m.sample.check(c) // a trigger on most calls of its command narrows to its error
			if failureKind(c) {
				c.retext()
				m.weights.Score(c) // for foldKinds, which keeps the better supported
			}
		}
	}
	if len(m.dirty) > 0 {
		// one failure learned under two kinds, across this scan's
		// findings and the store's: one is listed
		for _, c := range foldKinds(m.sorted()) {
			m.dirty[c.ID] = true
		}
		for _, c := range foldWordings(m.sorted()) {
			m.dirty[c.ID] = true
		}
		for _, c := range foldFolders(m.sorted()) {
			m.dirty[c.ID] = true
		}
		for _, c := range foldShifts(m.sorted()) {
			m.dirty[c.ID] = true
		}
		for id := range m.dirty {
			m.byID[id].Failure = "" // its text may have changed: read it again
		}
		for _, c := range comebacks(m.sorted()) {
			m.dirty[c.ID] = true
		}
	}
	ids := make([]string, 0, len(m.dirty))
	for id := range m.dirty {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		c := m.byID[id]
		c.retext()
		m.weights.Score(c)
		if err := m.store.write(*c); err != nil {
			return err
		}
	}
	if !m.loaded {
		return nil
	}
	return m.saveWrongFiles()
}

// sorted is the store's candidates in id order.
func (m *merger) sorted() []*Candidate {
	out := make([]*Candidate, 0, len(m.byID))
	for _, id := range slices.Sorted(maps.Keys(m.byID)) {
		out = append(out, m.byID[id])
	}
	return out
}

// Compliance reports, per agent, what the scans so far found: sessions
// scanned, #lesson tags, heuristic-only detections and the compliance
// rate. It reads the saved state and candidates; it scans nothing.
func Compliance(stateDir string) ([]AgentReport, error) {
	st, err := loadState(stateDir)
	if err != nil {
		return nil, err
	}
	return compliance(st, &merger{store: OpenStore(stateDir)})
}

// compliance reports, per agent, sessions scanned so far and how many of
// the mistakes found were tagged by the agent.
func compliance(st *scanState, m *merger) ([]AgentReport, error) {
	if err := m.load(); err != nil {
		return nil, err
	}
	by := map[string]*AgentReport{}
	get := func(agent string) *AgentReport {
		if by[agent] == nil {
			by[agent] = &AgentReport{Agent: agent}
		}
		return by[agent]
	}
	sessions := map[string]map[string]bool{}
	for p, fs := range st.Files {
		if fs.Format == FormatUnknown || fs.Format == FormatOpencodeDB && fs.Session.ID == "" {
			continue // a database counts by the sessions it holds
		}
		agent := fs.Format.Agent()
		if sessions[agent] == nil {
			sessions[agent] = map[string]bool{}
		}
		id := fs.Session.ID
		if id == "" {
			id = p
		}
		sessions[agent][id] = true
	}
	for agent, ids := range sessions {
		get(agent).Sessions = len(ids)
	}
	for _, c := range m.byID {
		for _, p := range c.Provenance {
			switch {
			case c.Kind == KindTag:
				get(p.Agent).Tags++
			case c.Kind == KindError:
				// a failure and what got past it, not a mistake the
				// agent was asked to report
			case !p.Covered:
				get(p.Agent).HeuristicOnly++
			}
		}
	}
	var out []AgentReport
	for _, a := range by {
		if n := a.Tags + a.HeuristicOnly; n > 0 {
			a.Compliance = float64(a.Tags) / float64(n)
		}
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b AgentReport) int {
		if a.Agent < b.Agent {
			return -1
		}
		return 1
	})
	return out, nil
}
