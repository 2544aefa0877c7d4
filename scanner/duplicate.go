package scanner

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// One lesson per mistake: a candidate that catches the same mistake as
// another candidate, or as an active lesson, adds its evidence to it
// instead of becoming a candidate of its own.

// StatusDuplicate marks the record that collects the evidence of
// candidates that repeat an active lesson (LessonID); it is never
// listed for review.
const StatusDuplicate Status = "duplicate"

// sameMistake reports whether two candidates are one mistake: the same
// tool, and they come from the same failing call, or (where both were
// read from a failed call's error, of one class, as a replay's repeat
// key: "Cannot find module 'xlsx'" and "… 'playwright'" are two, as a
// class keeps the object it names) each one's trigger fires on the
// other's failing example and they say the same (their words overlap by
// lessons.NearDuplicateThreshold) or share a fix.
func sameMistake(a, b *Candidate) bool {
	if a.Tool == b.Tool && sharesCall(a, b) {
		return true // one failing call, reported by the agent and seen by a heuristic
	}
	if a.Tool != b.Tool || len(a.Examples.Match) == 0 || len(b.Examples.Match) == 0 {
		return false
	}
	if ca, cb := a.errorClass(), b.errorClass(); ca != "" && cb != "" && ca != cb {
		return false
	}
	if !firesOn(ToLesson(*a), b.Examples.Match) || !firesOn(ToLesson(*b), a.Examples.Match) {
		return false
	}
	if a.Fixed != "" && a.Fixed == b.Fixed || sharesCall(a, b) || sameWrapper(a, b) {
		return true
	}
	la, lb := ToLesson(*a), ToLesson(*b)
	return lessons.Similarity(&la, &lb) >= lessons.NearDuplicateThreshold
}

// errorClass is the class of the failed call's error a heuristic read
// c from; "" for what a user said or the agent's own report: words, of
// no error class.
func (c *Candidate) errorClass() string {
	switch c.Kind {
	case KindTag, KindRejection, KindCorrection:
		return ""
	}
	return lessons.ErrorClass(c.Problem)
}

// repeats reports whether candidate c catches the mistake an active
// lesson l catches, by the rule promote refuses a lesson by: each one's
// trigger fires on the other's failing example, and, when c knows the
// fix that worked, the lesson stays quiet on it. What a user said (a
// correction, a rejection's reason) is folded only when the lesson says
// it too: the user may want more than the lesson, and review shows it.
func repeats(c *Candidate, l *lessons.Lesson) bool {
	if len(c.Examples.Match) == 0 || len(l.Examples.Match) == 0 || !slices.Contains(l.Triggers.ImpliedTools(), c.Tool) ||
		c.Tool == "Bash" && len(l.Triggers.Commands) == 0 {
		return false
	}
	if !firesOn(*l, c.Examples.Match) || !firesOn(ToLesson(*c), l.Examples.Match) {
		return false
	}
	if c.Signals.UserCorrection {
		lc := ToLesson(*c)
		return lessons.Similarity(&lc, l) >= lessons.NearDuplicateThreshold
	}
	return c.Fixed == "" || !firesOn(*l, []lessons.ToolCall{{Tool: "Bash", Command: c.Fixed}})
}

func firesOn(l lessons.Lesson, calls []lessons.ToolCall) bool {
	return slices.ContainsFunc(calls, func(call lessons.ToolCall) bool {
		ok, err := engine.MatchLesson(&l, call)
		return err == nil && ok
	})
}

func sharesCall(a, b *Candidate) bool {
	for _, p := range a.Provenance {
		if p.Call != "" && slices.ContainsFunc(b.Provenance, func(q Provenance) bool { return q.Call == p.Call }) {
			return true
		}
	}
	return false
}

// duplicateOf is the record collecting what repeats lesson l.
func duplicateOf(c Candidate, l *lessons.Lesson) Candidate {
	sum := sha256.Sum256([]byte("lesson\x00" + l.ID))
	d := c
	d.ID, d.Status, d.LessonID = hex.EncodeToString(sum[:])[:12], StatusDuplicate, l.ID
	d.Provenance, d.Occurrences, d.Sessions, d.Projects, d.Agents = nil, 0, nil, nil, nil
	for _, p := range c.Provenance {
		d.add(p)
	}
	return d
}

// combine folds n, the same mistake as c, into what c says: the agent's
// own report gives the text (its words are the better lesson: its
// summary, problem and solution are kept whichever was seen first), and
// the trigger that was narrowed against a fix that worked wins over one
// that was not. c keeps its id and evidence; merge adds n's.
func (c *Candidate) combine(n Candidate) {
	if n.Kind == KindTag && c.Kind != KindTag {
		c.Kind, c.Summary, c.Problem, c.Solution = n.Kind, n.Summary, n.Problem, n.Solution
		c.Tags, c.Scope = n.Tags, n.Scope
		c.Signals.SelfReported = true
	}
	if c.Fixed == "" && n.Fixed != "" {
		c.Triggers, c.Examples, c.Trigger, c.Fixed = n.Triggers, n.Examples, n.Trigger, n.Fixed
	} else if sameWrapper(c, &n) {
		// the same program run another way (mise x, then mise exec):
		// either form is the fix, and the lesson is quiet before both
		for _, u := range n.Triggers.Unless {
			if !slices.Contains(c.Triggers.Unless, u) {
				c.Triggers.Unless = append(c.Triggers.Unless, u)
			}
		}
	}
	if c.Kind == KindTag {
		// the agent's report needs no review, unless its trigger
		// fires on its own fix
		c.NeedsReview = c.Fixed != "" && len(c.Triggers.Commands) > 0 && commandFires(c.Triggers, c.Fixed)
	}
}

// sameWrapper reports whether two retry lessons run the same failed
// command through the same program ("mise x hk --" and "mise exec --"
// before hk install): one lesson, whatever the program's subcommand or
// arguments.
func sameWrapper(a, b *Candidate) bool {
	if a.Kind != KindRetry || b.Kind != KindRetry || a.Fixed == "" || b.Fixed == "" {
		return false
	}
	da, ok := diffCommands(a.Trigger, a.Fixed)
	if !ok || len(da.wrapper) == 0 {
		return false
	}
	db, ok := diffCommands(b.Trigger, b.Fixed)
	return ok && len(db.wrapper) > 0 && da.wrapper[0] == db.wrapper[0] && da.exe == db.exe && da.sub == db.sub
}
