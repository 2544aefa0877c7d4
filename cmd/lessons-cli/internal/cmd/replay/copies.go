package replay

import (
	"slices"

	"github.com/lessons-dev/lessons/scanner"
)

// copies holds the ids of the calls replayed so far. A resumed or forked
// session's log repeats the calls before it with their ids: those were
// made once, in the earlier log. The hook never saw them again, so the
// replay does not run them through the lessons, and they are neither
// calls, failures nor repeats of the later log; the trace keeps them,
// marked, so that a label on one still joins.
type copies map[string]bool

// keysOf is the copy key of each of a session's calls ("" for a call
// whose id is not unique across sessions).
func keysOf(s *scanner.LoggedSession) []string {
	keys := make([]string, len(s.Calls))
	for i := range s.Calls {
		keys[i] = s.Calls[i].CopyKey()
	}
	return keys
}

// mark reports which calls of the next session in replay order, given
// by their keys, were replayed before, and notes the session's own; nil
// when none was.
func (seen copies) mark(keys []string) []bool {
	var copied []bool
	for i, k := range keys {
		if k != "" && seen[k] {
			if copied == nil {
				copied = make([]bool, len(keys))
			}
			copied[i] = true
		}
	}
	for _, k := range keys {
		if k != "" {
			seen[k] = true
		}
	}
	return copied
}

// clearCopies takes back what a session replayed in parallel, before
// its order was known, did at its copied calls: their matches, fires
// and refusals.
func (r *sessionResult) clearCopies(copied []bool) {
	if copied == nil {
		return
	}
	lines := map[int]bool{} // of the copies: a session's calls share its file
	for i := range r.calls {
		if tc := &r.calls[i]; copied[i] {
			tc.Copy, tc.Matched, tc.Fired, tc.InjectedBytes, tc.Verdict = true, []string{}, []TraceFire{}, 0, ""
			lines[tc.Line] = true
		}
	}
	r.refused = slices.DeleteFunc(r.refused, func(ref Refused) bool { return lines[ref.Line] })
}
