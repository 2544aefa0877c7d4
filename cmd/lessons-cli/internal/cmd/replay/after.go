package replay

import (
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
)

// afterFailure replays the outcome of the session's failed call c (number
// i), when the log kept what it printed: the lessons on its error that
// the hook would have given right after it. It counts their matches and
// the injection, and returns their slugs.
func (r *sessionResult) afterFailure(rs *engine.ReplaySession, s *scanner.LoggedSession, c *scanner.LoggedCall, i int, slugs []string) []string {
	if c.Outcome != scanner.OutcomeFailed || c.Error == "" {
		return nil
	}
	ans, err := rs.AfterFailure(i, toCall(c), c.Error)
	r.note(s, c, err)
	for _, h := range ans.Hits {
		r.lesson(slugs[h.Index]).matches++
	}
	if len(ans.Fires) == 0 {
		return nil
	}
	r.injections++
	r.bytes += int64(ans.Bytes)
	out := make([]string, len(ans.Fires))
	for k, f := range ans.Fires {
		out[k] = f.Slug
	}
	return out
}
