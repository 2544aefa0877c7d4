package scanner

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/lessons-dev/lessons"
)

// Weights tune how confident and how important a candidate is. The zero
// value is not useful; start from DefaultWeights.
type Weights struct {
	TagConfidence       float64 `json:"tagConfidence"`
	HeuristicConfidence float64 `json:"heuristicConfidence"`
	FixConfirmed        float64 `json:"fixConfirmed"`
	UserCorrection      float64 `json:"userCorrection"`
	MultiSession        float64 `json:"multiSession"`
	MultiProject        float64 `json:"multiProject"`
	Causal              float64 `json:"causal"`
	// Weak is added for a rejection whose reason is only a question or
	// feedback without an instruction (negative: it lowers confidence).
	Weak float64 `json:"weak"`
	// WeakMax caps such a candidate's confidence, below the default
	// minConfidence, however often it was seen: a question asked in two
	// sessions is still not a lesson. It caps too a heuristic whose
	// trigger fires on most calls of its command, and, seen in a single
	// session, a one-off fix or reason and a trigger that is only a
	// tool name.
	WeakMax float64 `json:"weakMax"`

	BasePriority         int `json:"basePriority"`
	PriorityMultiSession int `json:"priorityMultiSession"`
	PriorityMultiProject int `json:"priorityMultiProject"`
	PriorityHang         int `json:"priorityHang"`
	PriorityDataLoss     int `json:"priorityDataLoss"`
	PriorityCorrection   int `json:"priorityCorrection"`
	PriorityFixConfirmed int `json:"priorityFixConfirmed"`
	PrioritySelfReported int `json:"prioritySelfReported"`
	PrioritySingle       int `json:"prioritySingle"`
}

// DefaultWeights are the weights of the capture design: tags start at
// 0.85 and heuristics at 0.4; each doubling of the sessions (and of the
// projects) a mistake was seen in adds 0.1, up to 8; a weak rejection
// reason (a question, or feedback without an instruction) takes 0.2 off
// and stays at 0.45 or below; priority starts at 3.
func DefaultWeights() Weights {
	return Weights{
		TagConfidence: 0.85, HeuristicConfidence: 0.4, FixConfirmed: 0.2, UserCorrection: 0.15,
		MultiSession: 0.1, MultiProject: 0.1, Causal: 0.05, Weak: -0.2, WeakMax: 0.45,
		BasePriority: 3, PriorityMultiSession: 2, PriorityMultiProject: 1, PriorityHang: 1,
		PriorityDataLoss: 1, PriorityCorrection: 1, PriorityFixConfirmed: 1, PrioritySelfReported: 1,
		PrioritySingle: -1,
	}
}

// Score sets a candidate's confidence (0–1) and priority (1–10) from its
// signals and how often, and where, it was seen.
func (w Weights) Score(c *Candidate) {
	s := c.Signals
	multiSession, multiProject := len(c.Sessions) >= 2, len(c.Projects) >= 2
	conf := w.HeuristicConfidence
	if c.Kind == KindTag {
		conf = w.TagConfidence
	}
	add := func(on bool, v float64) {
		if on {
			conf += v
		}
	}
	// A question or bare feedback followed by a change is not a confirmed
	// fix of a mistake.
	add(s.FixConfirmed && !s.Weak(), w.FixConfirmed)
	add(s.UserCorrection, w.UserCorrection)
	conf += supportBonus(len(c.Sessions), w.MultiSession)
	conf += supportBonus(len(c.Projects), w.MultiProject)
	add(s.Causal, w.Causal)
	add(s.Weak(), w.Weak)
	if c.capped() || c.remindOnly() {
		conf = min(conf, w.WeakMax)
	}
	c.Confidence = math.Round(min(max(conf, 0), 1)*100) / 100

	p := w.BasePriority
	padd := func(on bool, v int) {
		if on {
			p += v
		}
	}
	padd(multiSession, w.PriorityMultiSession)
	padd(multiProject, w.PriorityMultiProject)
	padd(s.Hang, w.PriorityHang)
	padd(s.DataLoss, w.PriorityDataLoss)
	padd(s.UserCorrection, w.PriorityCorrection)
	padd(s.FixConfirmed, w.PriorityFixConfirmed)
	padd(s.SelfReported, w.PrioritySelfReported)
	padd(c.Occurrences <= 1, w.PrioritySingle)
	c.Priority = min(max(p, 1), 10)
}

// capped reports whether a candidate's confidence stays at WeakMax,
// below the default minConfidence, however often it was seen: a weak
// rejection reason, or a heuristic whose trigger is broad, whose fix is
// one task's or what the error already says (said before every call), or
// that is only a tool name seen in a single session. A lesson on an
// error is not capped for a one-off fix: it is said after the same error
// as that task's call (remindOnly), since it comes only after its error.
func (c *Candidate) capped() bool {
	s, multiSession := c.Signals, len(c.Sessions) >= 2
	oneOff := s.OneOff && c.Kind != KindError && !c.onePath() && !multiSession
	// such a fix, said before every call; one the error says is worth
	// saying before the call once the mistake came back in another
	// session: the error's words did not stop it
	before := len(c.Triggers.Errors) == 0 && (c.doubtful() || s.Reminds && !multiSession)
	// what a user refused or corrected once is that task's decision until
	// it comes back in another session
	toldOnce := (c.Kind == KindRejection || c.Kind == KindCorrection) && !multiSession
	return s.Weak() || c.Kind != KindTag && (s.Broad || s.Works || oneOff || before || toldOnce || c.everyCall() && !multiSession)
}

// remindOnly reports whether a lesson on an error is said as a reminder
// but never proposed to the team, however often it was seen: a known
// failure (it says what failed before and not to retry it as it is, with
// no fix: on the sets no rule was tuned on, labellers kept 1 of the 12
// proposed, the others a transient breakage, a tool misused one way and
// then another, or what the error said), a lesson on an error nothing
// got past (it says only that the error came before, and what was
// tried), a lesson that comes only after its error whose fix is not
// shown to be the team's (unproven), one about the work's own commands
// (afterTheWork), its fix is one task's (OneOff: it counts the sessions
// of its error, not of its fix, and keeps the first fix found, until the
// same fix comes back; merge clears OneOff), or its fix was seen in one
// session only (fixedOnce: among such lessons, a precondition whose step
// repaired the one thing the error named was noise 4 times in 4 on the
// labelled sets, a retry that ran the command from another directory
// was kept 2 times in 9 by the blind and fresh labellers), or it is a
// precondition whose step writes a file (Signals.Wrote: on the sets no
// rule was tuned on, labellers kept none of the 2 proposed). Said right
// after the same failure, each saves the agent a detour.
func (c *Candidate) remindOnly() bool {
	return c.Kind == KindKnown || c.Kind == KindError && c.Fixed == "" && c.Instead == "" || c.afterTheWork() ||
		c.unproven() && len(c.Triggers.Errors) > 0 || c.Kind == KindError && c.Signals.OneOff || c.onePath() || c.fixedOnce() ||
		c.Kind == KindPrecondition && c.Signals.Wrote
}

// afterTheWork reports whether c is a lesson on an error that no refusal
// of the environment explains (the network, an operation, the agent's
// permissions, the sandbox): what got past a failure of the work's own
// commands, or what a server said about the task's data. Said right
// after the same failure, it saves the agent a detour; proposed to the
// team, such lessons were kept 1 time in about 20 on the tuned sets, and
// none of 11 on v12: the error mostly says it, or the reading of the
// failure is one session's. A refusal names a cause a team acts on, and
// is proposed.
func (c *Candidate) afterTheWork() bool {
	if c.Kind != KindError {
		return false
	}
	class := lessons.ErrorClass(c.Problem)
	return !c.Signals.Sandboxed && !lessons.EnvRefusal(class)
}

// unproven reports whether a heuristic's fix is not shown to be the one
// to propose: a retry's lesson already proposes it, or the error already
// says it (Signals.Reminds), or it is doubtful.
func (c *Candidate) unproven() bool {
	return c.Signals.Reminds || c.doubtful()
}

// doubtful reports whether what got past a heuristic's error is unsure:
// the fix came after several tries (afterTries), or the sessions got
// past the error different ways and none repeated it (Signals.FixVaries,
// FixAgain).
func (c *Candidate) doubtful() bool {
	s := c.Signals
	return c.afterTries() || s.FixVaries && !s.FixAgain
}

// afterTries reports whether a heuristic's fix came only after more than
// one failed try: the agent was searching, and which of the changes it
// made along the way got past the error is unsure (on the labelled sets,
// such lessons were noise 13 times in 15), so the lesson is not proposed
// (said after its error at most).
func (c *Candidate) afterTries() bool {
	return c.Kind != KindTag && c.Fixed != "" && c.Signals.Retries > 0
}

// Reminder reports whether a candidate may come, before anyone reviews
// it, after the failure it was learned from comes back: it speaks only
// after a failed call whose error its triggers name, it was not capped
// (capped), nobody rejected, promoted or folded it, and cfg admits its
// confidence for such a lesson (minErrorConfidence). It never comes
// before a call, so the cost of one that is wrong is a few lines after a
// failure it names.
func (c *Candidate) Reminder(cfg lessons.Config) bool {
	_, ok := c.AsReminder(cfg)
	return ok
}

// With returns w with the weights named in overrides (by their JSON names,
// as config's scoring key holds them) replaced. An unknown name is an
// error naming it.
func (w Weights) With(overrides map[string]float64) (Weights, error) {
	if len(overrides) == 0 {
		return w, nil
	}
	base, err := json.Marshal(w)
	if err != nil {
		return w, err
	}
	var all map[string]float64
	if err := json.Unmarshal(base, &all); err != nil {
		return w, err
	}
	for name, v := range overrides {
		if _, ok := all[name]; !ok {
			return w, fmt.Errorf("scoring: unknown weight %q", name)
		}
		all[name] = v
	}
	merged, err := json.Marshal(all)
	if err != nil {
		return w, err
	}
	var out Weights
	if err := json.Unmarshal(merged, &out); err != nil {
		return w, fmt.Errorf("scoring: %w", err)
	}
	return out, nil
}
