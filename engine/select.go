package engine

import (
	"cmp"
	"slices"

	lessons "github.com/lessons-dev/lessons"
)

// maxContextBytes keeps injected text under Claude Code's 10,000-character
// cap for additionalContext, with room for the header and footer.
const maxContextBytes = 9000

// Candidate is a lesson that may be injected, with why.
type Candidate struct {
	Entry
	Trigger string // trigger kinds that matched, e.g. "commands"
	// Again: the session heard the lesson already and its error came
	// back; it is said again, up to sayAgain times.
	Again bool
}

// Pick is a selected lesson; Short means it fell back to its summary.
type Pick struct {
	Candidate
	Short bool
}

// Selection is what one answer injects, and what it left out for budget.
type Selection struct {
	Injected []Pick
	Dropped  []string
}

// rankCandidates orders by priority plus stack bonus, then confidence,
// then slug so equal lessons always come in the same order.
func rankCandidates(cs []Candidate) {
	slices.SortStableFunc(cs, func(a, b Candidate) int {
		if a.Again != b.Again { // what the session has not heard goes first
			if b.Again {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Priority+b.StackBonus, a.Priority+a.StackBonus); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Confidence, a.Confidence); c != 0 {
			return c
		}
		return cmp.Compare(a.Slug, b.Slug)
	})
}

// selectLessons takes candidates in order within the lesson count and
// byte budget: the first always goes in, a later one that does not fit
// falls back to its summary, then is dropped. claim is asked only for
// what would be injected; when it says no (another call of the session
// has the lesson) the lesson is skipped without using the budget.
func selectLessons(cs []Candidate, cfg lessons.Config, claim func(c Candidate) bool) Selection {
	budget := min(max(cfg.InjectionBudgetBytes, 0), maxContextBytes)
	limit := max(cfg.MaxLessonsPerInjection, 1)
	var sel Selection
	used := 0
	for _, c := range cs {
		if len(sel.Injected) >= limit {
			sel.Dropped = append(sel.Dropped, c.Slug)
			continue
		}
		pick := Pick{Candidate: c}
		size := len(c.Text)
		switch {
		case len(sel.Injected) == 0:
			if size > maxContextBytes {
				pick.Text = truncate(c.Text, maxContextBytes)
				size = len(pick.Text)
			}
		case used+size <= budget:
		case used+len(c.Short()) <= budget:
			pick.Short, size = true, len(c.Short())
		default:
			sel.Dropped = append(sel.Dropped, c.Slug)
			continue
		}
		if !claim(c) {
			continue
		}
		sel.Injected = append(sel.Injected, pick)
		used += size
	}
	return sel
}

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	const mark = "\n[…]"
	if len(s) <= n {
		return s
	}
	cut := n - len(mark)
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + mark
}
