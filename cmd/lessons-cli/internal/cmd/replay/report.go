package replay

import (
	"cmp"
	"path"
	"slices"
	"time"

	"github.com/lessons-dev/lessons/scanner"
)

// Report is what replay --json prints.
type Report struct {
	Sessions int `json:"sessions"`
	Calls    int `json:"calls"`
	Failed   int `json:"failed"`
	Rejected int `json:"rejected"`
	// Injections counts the answers that added lesson text, and
	// InjectedBytes the text they added: the context the lessons cost.
	Injections       int     `json:"injections"`
	InjectedBytes    int64   `json:"injectedBytes"`
	InjectionsPer100 float64 `json:"injectionsPer100Calls"`
	BytesPer100      float64 `json:"bytesPer100Calls"`
	// Blocks counts the calls a lesson would have refused; Refused lists
	// the first of them.
	Blocks  int       `json:"blocks"`
	Refused []Refused `json:"refused"`
	// Lessons are the lessons that matched a call, most fires first.
	Lessons []LessonReport `json:"lessons"`
	// NeverFired are the replayed lessons that reached no call.
	NeverFired []string `json:"neverFired"`
	// Noisiest are the lessons that fired mostly before calls that went
	// fine, noisiest first.
	Noisiest []string      `json:"noisiest"`
	Learn    *LearnReport  `json:"learn,omitempty"`
	Gate     *GateReport   `json:"gate,omitempty"`
	Input    InputReport   `json:"input"`
	Duration time.Duration `json:"durationNs"`
}

// LessonReport is one lesson's figures.
type LessonReport struct {
	Slug string `json:"slug"`
	// Matches counts the calls its trigger matched; Fires the times its
	// text reached the agent or it refused a call (once a session, unless
	// a compaction made it eligible again).
	Matches int `json:"matches"`
	Fires   int `json:"fires"`
	// FiresBeforeFailed, …Fine and …Rejected split Fires by what became
	// of the call that brought the lesson up.
	FiresBeforeFailed   int `json:"firesBeforeFailed"`
	FiresBeforeFine     int `json:"firesBeforeFine"`
	FiresBeforeRejected int `json:"firesBeforeRejected"`
	// FiresAfterFailed counts the fires of a lesson on an error right
	// after a failed call whose output it matched; they are in Fires.
	FiresAfterFailed int `json:"firesAfterFailed,omitempty"`
	Blocks           int `json:"blocks"`
	Sessions         int `json:"sessions"`
	// Caught counts the failed calls it fired on whose fix (the later
	// call that worked, when the log shows one) it would not fire on.
	Caught int `json:"caught"`
	// FineCalls counts the calls of the lesson's tools that went fine:
	// the calls it could match that needed no lesson. Noise is
	// FiresBeforeFine / FineCalls.
	FineCalls int     `json:"fineCalls"`
	Noise     float64 `json:"noise"`
	// Provisional marks a lesson --learn made from earlier sessions.
	Provisional bool `json:"provisional,omitempty"`
}

// Refused is a call a blocking lesson would have refused.
type Refused struct {
	Slug    string `json:"slug"`
	Agent   string `json:"agent"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Tool    string `json:"tool"`
	Call    string `json:"call"`
	Outcome string `json:"outcome"`
}

// InputReport is what was read, and what could not be.
type InputReport struct {
	Files   int                                     `json:"files"`
	Formats map[scanner.Format]*scanner.FormatCount `json:"formats"`
	Skipped scanner.Skipped                         `json:"skipped"`
	// Lessons is how many lessons were replayed; LessonsLeftOut names
	// those that did not load or compile (a broken regex).
	Lessons        int      `json:"lessons"`
	LessonsLeftOut []string `json:"lessonsLeftOut"`
	// Timeouts counts regex searches that ran out of time; their lesson
	// was skipped for that call, as the hook skips it.
	Timeouts int `json:"timeouts"`
	// Errors names the first problems met, with file and line.
	Errors []string `json:"errors"`
}

// maxRefused caps the refused calls listed (Blocks counts them all).
const maxRefused = 50

// totals sums session results into a report.
type totals struct {
	rep       Report
	lessons   map[string]*tally
	fineTools map[string]int
}

func newTotals() *totals {
	return &totals{lessons: map[string]*tally{}, fineTools: map[string]int{}, rep: Report{Refused: []Refused{}}}
}

func (t *totals) add(r *sessionResult) {
	rep := &t.rep
	rep.Sessions++
	rep.Calls += r.calls
	rep.Failed += r.failed
	rep.Rejected += r.rejected
	rep.Injections += r.injections
	rep.InjectedBytes += r.bytes
	rep.Blocks += r.blocks
	for _, ref := range r.refused {
		if len(rep.Refused) < maxRefused {
			rep.Refused = append(rep.Refused, ref)
		}
	}
	for slug, l := range r.lessons {
		if t.lessons[slug] == nil {
			t.lessons[slug] = &tally{}
		}
		t.lessons[slug].add(l)
	}
	for tool, n := range r.fineTools {
		t.fineTools[tool] += n
	}
	rep.Input.Timeouts += r.timeouts
	for _, e := range r.errs {
		if len(rep.Input.Errors) < 20 {
			rep.Input.Errors = append(rep.Input.Errors, e)
		}
	}
}

// replayed is a lesson of the replay: its slug and the tools its
// trigger applies to.
type replayed struct {
	slug        string
	tools       []string
	provisional bool
}

// noisyShare is the share of a lesson's fires before fine calls from
// which it counts among the noisiest; maxNoisiest caps that list.
const (
	noisyShare  = 0.5
	maxNoisiest = 5
)

// finish computes the per-lesson figures of every lesson replayed.
func (t *totals) finish(ls []replayed) {
	rep := &t.rep
	if rep.Calls > 0 {
		rep.InjectionsPer100 = round2(float64(rep.Injections) * 100 / float64(rep.Calls))
		rep.BytesPer100 = round2(float64(rep.InjectedBytes) * 100 / float64(rep.Calls))
	}
	rep.Lessons, rep.NeverFired, rep.Noisiest = []LessonReport{}, []string{}, []string{}
	done := map[string]bool{}
	for _, l := range ls {
		if done[l.slug] {
			continue
		}
		done[l.slug] = true
		tl := t.lessons[l.slug]
		if tl == nil || tl.fires == 0 {
			if !l.provisional {
				rep.NeverFired = append(rep.NeverFired, l.slug)
			}
			if tl == nil {
				continue
			}
		}
		lr := LessonReport{Slug: l.slug, Matches: tl.matches, Fires: tl.fires, FiresBeforeFailed: tl.beforeFailed,
			FiresBeforeFine: tl.beforeFine, FiresBeforeRejected: tl.beforeRejected, FiresAfterFailed: tl.afterFailed, Blocks: tl.blocks,
			Sessions: tl.sessions, Caught: tl.caught, Provisional: l.provisional}
		for tool, n := range t.fineTools {
			if slices.ContainsFunc(l.tools, func(p string) bool { ok, _ := path.Match(p, tool); return p == tool || ok }) {
				lr.FineCalls += n
			}
		}
		if lr.FineCalls > 0 {
			lr.Noise = round4(float64(lr.FiresBeforeFine) / float64(lr.FineCalls))
		}
		rep.Lessons = append(rep.Lessons, lr)
	}
	slices.SortStableFunc(rep.Lessons, func(a, b LessonReport) int {
		return cmp.Or(cmp.Compare(b.Fires, a.Fires), cmp.Compare(b.Matches, a.Matches), cmp.Compare(a.Slug, b.Slug))
	})
	slices.Sort(rep.NeverFired)
	var noisy []LessonReport
	for _, l := range rep.Lessons {
		if l.Fires > 0 && float64(l.FiresBeforeFine) > noisyShare*float64(l.Fires) {
			noisy = append(noisy, l)
		}
	}
	slices.SortStableFunc(noisy, func(a, b LessonReport) int {
		return cmp.Or(cmp.Compare(b.FiresBeforeFine, a.FiresBeforeFine), cmp.Compare(b.Noise, a.Noise))
	})
	for _, l := range noisy[:min(len(noisy), maxNoisiest)] {
		rep.Noisiest = append(rep.Noisiest, l.Slug)
	}
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
func round4(v float64) float64 { return float64(int64(v*10000+0.5)) / 10000 }
