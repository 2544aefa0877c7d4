package engine

import "errors"

// AfterFailure answers the outcome of the session's call number i, which
// failed and printed output, as the hook answers it: the lessons on its
// error (triggers.errors) not yet claimed in the session, ranked,
// selected and claimed under the same budget as a call's lessons. Their
// fires are after the call (Fire.After). A lesson whose regex timed out
// is left out, and the error (wrapping ErrTimeout) says so.
func (s *ReplaySession) AfterFailure(i int, c Call, output string) (Answer, error) {
	m := s.r.Manifest
	hits, merr := s.r.mt.MatchFailure(m, c, failureText(output))
	if merr != nil && !errors.Is(merr, ErrTimeout) {
		return Answer{}, merr
	}
	ans := Answer{Hits: hits}
	var cs []Candidate
	for _, h := range hits {
		e, err := m.Entry(h.Index)
		if err != nil {
			return ans, err
		}
		if _, claimed := s.claims[e.Slug]; !claimed {
			cs = append(cs, Candidate{Entry: e, Trigger: h.Kinds})
		}
	}
	rankCandidates(cs)
	var err error
	ans.Fires, ans.Bytes, err = s.inject(aboutFailure(c), cs, i)
	for k := range ans.Fires {
		ans.Fires[k].After = true
	}
	return ans, errors.Join(merr, err)
}
