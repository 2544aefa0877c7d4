package scanner

import (
	"regexp"
	"strings"
)

// A user who rejects a tool call often explains why, but the reason is not
// always an instruction: it may be a question ("will this work in CI?") or
// feedback on the plan or the task ("please add the favicon too first").
// Such a rejection stays a candidate, since the user said something about
// the call, but it rarely makes a lesson: it is marked, scored lower and
// listed last.

// questionStart is how a question begins; "do not" begins an order.
var (
	questionStart = regexp.MustCompile(`(?i)^(what|why|how|can|could|should|is|are|do|does)\b`)
	doNot         = regexp.MustCompile(`(?i)^do\s+not\b`)
)

// instruction is a word that tells the agent what to do next time.
var instruction = regexp.MustCompile(`(?i)\b(use|don'?t|do not|never|always|instead|stop|avoid|prefer)\b`)

// neverMind is not an instruction, though it starts with one.
var neverMind = regexp.MustCompile(`(?i)\bnever\s?mind\b`)

// classifyReason says whether a rejection's reason is only a question, or
// feedback without an instruction. At most one of the two is set; an
// empty reason is neither.
func classifyReason(reason string) (question, feedback bool) {
	r := strings.TrimSpace(reason)
	if r == "" {
		return false, false
	}
	if strings.HasSuffix(strings.TrimRight(r, ") \t\n"), "?") || (questionStart.MatchString(r) && !doNot.MatchString(r)) {
		return true, false
	}
	return false, !instruction.MatchString(neverMind.ReplaceAllString(r, ""))
}

// Weak reports whether the evidence is a rejection whose reason is only a
// question or feedback: such candidates are scored lower and listed last.
func (s Signals) Weak() bool { return s.Question || s.Feedback }
