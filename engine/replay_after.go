package engine

import "errors"

// AfterFailure answers the outcome of the session's call number i, which
// failed and printed output, as the hook answers it: the lessons on its
// error (triggers.errors) of the manifest and the extras, not yet claimed
// in the session or said again fewer than sayAgain times, ranked,
// selected and claimed under the same budget as a call's lessons. Their
// fires are after the call (Fire.After). A lesson whose regex timed out
// is left out, and the error (wrapping ErrTimeout) says so.
func (s *ReplaySession) AfterFailure(i int, c Call, output string) (Answer, error) {
	text := FailureText(output)
	var cs, extras []Candidate
	var merr error
	ans := Answer{}
	for k := -1; k < len(s.extra); k++ {
		m, skip := s.r.Manifest, func(int) bool { return false }
		if k >= 0 {
			m = s.extra[k].Manifest
			if s.extra[k].Skip != nil {
				skip = s.extra[k].Skip
			}
		}
		hits, err := s.r.mt.MatchFailure(m, c, text)
		if err != nil && !errors.Is(err, ErrTimeout) {
			return Answer{}, err
		}
		merr = errors.Join(merr, err)
		for _, h := range hits {
			if skip(h.Index) {
				continue
			}
			e, err := m.Entry(h.Index)
			if err != nil {
				return ans, err
			}
			if k >= 0 {
				e.Index = extraIndex
			}
			ans.Matched = append(ans.Matched, e)
			_, again := s.claims[e.Slug]
			if again && s.again[e.Slug] >= s.r.Config.Again() {
				continue
			}
			c := Candidate{Entry: e, Trigger: h.Kinds, Again: again}
			if k >= 0 {
				extras = append(extras, c)
			} else {
				cs = append(cs, c)
			}
		}
	}
	var err error
	ans.Fires, ans.Bytes, err = s.inject(aboutFailure(c), cs, extras, i)
	for k := range ans.Fires {
		ans.Fires[k].After = true
	}
	return ans, errors.Join(merr, err)
}
