package engine

import (
	"cmp"
	"slices"
)

// NudgeStats is what the event log says about live capture's nudges to
// one agent.
type NudgeStats struct {
	Agent string `json:"agent"`
	// Nudges counts the nudges given; Sessions the sessions they went to.
	Nudges   int `json:"nudges"`
	Sessions int `json:"sessions"`
	// WithLesson counts those sessions in which a scan found a #lesson
	// block; Stats leaves it 0, for the caller that holds the scan's
	// findings (see SessionHashes).
	WithLesson int `json:"sessionsWithLesson"`
	// SessionHashes are the sessions nudged, as SessionHash names them.
	SessionHashes []string `json:"-"`
}

// nudgeTally counts nudges per agent while Stats reads the log.
type nudgeTally map[string]*NudgeStats

func (t nudgeTally) add(e Event) {
	s := t[e.Agent]
	if s == nil {
		s = &NudgeStats{Agent: e.Agent}
		t[e.Agent] = s
	}
	s.Nudges++
	if !slices.Contains(s.SessionHashes, e.Session) {
		s.SessionHashes = append(s.SessionHashes, e.Session)
	}
}

// list is the tally by agent name.
func (t nudgeTally) list() []NudgeStats {
	out := []NudgeStats{}
	for _, s := range t {
		s.Sessions = len(s.SessionHashes)
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b NudgeStats) int { return cmp.Compare(a.Agent, b.Agent) })
	return out
}
