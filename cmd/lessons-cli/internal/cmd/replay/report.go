package replay

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
)

// Report is what replay --json prints. docs/replay.md defines every
// figure; each can be recounted from the --trace lines.
type Report struct {
	Sessions int `json:"sessions"`
	Calls    int `json:"calls"`
	Failed   int `json:"failed"`
	Rejected int `json:"rejected"`
	// Stopped counts the calls whose process the agent ended on purpose
	// (outcome "stopped"): neither failures nor fine.
	Stopped int `json:"stopped"`
	// Repeated counts the failed calls whose key (family | class) failed
	// in an earlier session of the same project.
	Repeated int `json:"repeated"`
	// Injections counts the answers that added lesson text, and
	// InjectedBytes the text they added: the context the lessons cost.
	Injections       int     `json:"injections"`
	InjectedBytes    int64   `json:"injectedBytes"`
	InjectionsPer100 float64 `json:"injectionsPer100Calls"`
	BytesPer100      float64 `json:"bytesPer100Calls"`
	PromptReport
	// Blocks counts the calls a lesson would have refused; Refused lists
	// the first of them.
	Blocks  int       `json:"blocks"`
	Refused []Refused `json:"refused"`
	// Agents and Projects split the calls, failures, repeats and
	// verdicts; each column adds up to the total.
	Agents   []GroupReport `json:"agents"`
	Projects []GroupReport `json:"projects"`
	// Lessons are the lessons that matched a call, most fires first.
	Lessons []LessonReport `json:"lessons"`
	// NeverFired are the replayed lessons that reached no call.
	NeverFired []string `json:"neverFired"`
	// Noisiest are the pitfalls with the highest noise among those with
	// at least MinFires fires, noisiest first.
	Noisiest []string     `json:"noisiest"`
	Learn    *LearnReport `json:"learn,omitempty"`
	Gate     *GateReport  `json:"gate,omitempty"`
	// MinFires is the fewest fires a lesson needs for its noise to be
	// judged (by Noisiest and the gate).
	MinFires int           `json:"minFires"`
	Input    InputReport   `json:"input"`
	Duration time.Duration `json:"durationNs"`
}

// GroupReport is one agent's or one project's share of the figures.
type GroupReport struct {
	Name      string `json:"name"`
	Calls     int    `json:"calls"`
	Failed    int    `json:"failed"`
	Repeated  int    `json:"repeated"`
	Prevented int    `json:"prevented"`
	Shortened int    `json:"shortened"`
	Unrelated int    `json:"unrelated"`
}

// LessonReport is one lesson's figures.
type LessonReport struct {
	Slug string `json:"slug"`
	// Kind is pitfall or hazard; Provisional marks a lesson --learn
	// learned, and Scope is then "project" or "global" ("" for the
	// others).
	Kind        lessons.Kind `json:"kind"`
	Provisional bool         `json:"provisional"`
	Scope       string       `json:"scope"`
	// Tools are the tools its triggers apply to.
	Tools []string `json:"tools"`
	// Matches counts the calls its trigger matched; Fires the times it
	// reached the agent: its text before a call, a refusal, or its text
	// with a failure (FiresAfter, error triggers).
	Matches    int `json:"matches"`
	Fires      int `json:"fires"`
	FiresAfter int `json:"firesAfter"`
	// FiresBeforeFailed, …Fine and …Rejected split the fires before a
	// call by what became of the call.
	FiresBeforeFailed   int `json:"firesBeforeFailed"`
	FiresBeforeFine     int `json:"firesBeforeFine"`
	FiresBeforeRejected int `json:"firesBeforeRejected"`
	// FiresAddressing counts the fires that came before a failure the
	// lesson addresses.
	FiresAddressing int `json:"firesAddressing"`
	// Precision is FiresAddressing / Fires, and Noise 1 − Precision,
	// for a pitfall that fired; null for a hazard, which is judged by
	// Refused and Asked.
	Precision *float64 `json:"precision"`
	Noise     *float64 `json:"noise"`
	// Refused and Asked count the calls it denied or asked about.
	Refused int `json:"refused"`
	Asked   int `json:"asked"`
	// Sessions counts the sessions it fired in.
	Sessions int `json:"sessions"`
	// ToolCalls counts the calls of its tools, and FiresPer100 its fires
	// per 100 of them.
	ToolCalls   int     `json:"toolCalls"`
	FiresPer100 float64 `json:"firesPer100ToolCalls"`
	// Prevented, Shortened and Unrelated count the failed calls where
	// this learned lesson's fire made the verdict (Unrelated: its fire
	// before a failure it was not learned from).
	Prevented int `json:"prevented"`
	Shortened int `json:"shortened"`
	Unrelated int `json:"unrelated"`
	// LearnedFrom are the first failed calls a learned lesson was
	// learned from, and Keys their keys; [] for the others.
	LearnedFrom []CallRef `json:"learnedFrom"`
	Keys        []string  `json:"keys"`
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

// noProject names the sessions whose log names no project: they count
// as one project.
const noProject = "(no project)"

// tally is one lesson's counts.
type tally struct {
	matches, fires, after, beforeFailed, beforeFine, beforeRejected, addressing int
	refused, asked, sessions, prevented, shortened, unrelated                   int
	lastFile                                                                    string
}

// totals sums session results into a report, in replay order.
type totals struct {
	rep      Report
	lessons  map[string]*tally
	tools    map[string]int
	agents   map[string]*GroupReport
	projects map[string]*GroupReport
	// failedKeys holds, per project, the keys of the failures of the
	// sessions counted so far.
	failedKeys map[string]map[string]bool
	learn      *LearnReport
	// copies are the ids of the calls counted so far.
	copies copies
}

func newTotals() *totals {
	return &totals{lessons: map[string]*tally{}, tools: map[string]int{}, agents: map[string]*GroupReport{},
		projects: map[string]*GroupReport{}, failedKeys: map[string]map[string]bool{}, rep: Report{Refused: []Refused{}}, copies: copies{}}
}

func (t *totals) lesson(slug string) *tally {
	l := t.lessons[slug]
	if l == nil {
		l = &tally{}
		t.lessons[slug] = l
	}
	return l
}

// add counts a session, the next in replay order: it marks its repeats
// first, which only the sessions before it decide.
func (t *totals) add(r *sessionResult) {
	rep := &t.rep
	rep.Sessions++
	rep.addPrompts(r.promptTally)
	project := cmp.Or(r.project, noProject)
	seen := t.failedKeys[project]
	if seen == nil {
		seen = map[string]bool{}
		t.failedKeys[project] = seen
	}
	groups := []*GroupReport{group(t.agents, r.agent), group(t.projects, project)}
	for i := range r.calls {
		if c := &r.calls[i]; !c.Copy {
			c.Repeat = c.Outcome == "failed" && seen[failureKey(c)]
			t.count(c, groups)
		}
	}
	for i := range r.calls {
		if c := &r.calls[i]; c.Outcome == "failed" && !c.Copy {
			seen[failureKey(c)] = true
		}
	}
	for _, ref := range r.refused {
		if len(rep.Refused) < maxRefused {
			rep.Refused = append(rep.Refused, ref)
		}
	}
	rep.Input.Timeouts += r.timeouts
	for _, e := range r.errs {
		if len(rep.Input.Errors) < 20 {
			rep.Input.Errors = append(rep.Input.Errors, e)
		}
	}
}

// count adds one call's figures.
func (t *totals) count(c *TraceCall, groups []*GroupReport) {
	rep := &t.rep
	rep.Calls++
	t.tools[c.Tool]++
	if c.InjectedBytes > 0 {
		rep.Injections++
		rep.InjectedBytes += int64(c.InjectedBytes)
	}
	switch c.Outcome {
	case "failed":
		rep.Failed++
	case "rejected":
		rep.Rejected++
	case "stopped":
		rep.Stopped++
	}
	if c.Repeat {
		rep.Repeated++
	}
	for _, g := range groups {
		g.Calls++
		if c.Outcome == "failed" {
			g.Failed++
		}
		if c.Repeat {
			g.Repeated++
		}
		switch c.Verdict {
		case VerdictPrevented:
			g.Prevented++
		case VerdictShortened:
			g.Shortened++
		case VerdictUnrelated:
			g.Unrelated++
		}
	}
	for _, slug := range c.Matched {
		t.lesson(slug).matches++
	}
	for _, f := range c.Fired {
		l := t.lesson(f.Slug)
		l.fires++
		if l.lastFile != c.File {
			l.lastFile = c.File
			l.sessions++
		}
		if f.Addresses {
			l.addressing++
		}
		switch f.Refused {
		case string(lessons.DecisionDeny):
			rep.Blocks++
			l.refused++
		case string(lessons.DecisionAsk):
			rep.Blocks++
			l.asked++
		}
		if f.At == "after" {
			l.after++
		} else {
			switch c.Outcome {
			case "failed":
				l.beforeFailed++
			case "fine":
				l.beforeFine++
			case "rejected":
				l.beforeRejected++
			}
		}
		if f.Provisional {
			t.countLearned(c, &f, l)
		}
	}
}

// countLearned adds a learned lesson's fire to the learning figures.
func (t *totals) countLearned(c *TraceCall, f *TraceFire, l *tally) {
	lr := t.learn
	if lr == nil {
		return
	}
	switch {
	case c.Outcome == "fine" && f.At == "before":
		lr.LearnedFiresBeforeFine++
	case c.Outcome == "failed" && !f.Addresses && f.At == "before":
		lr.UnrelatedFires++
		l.unrelated++
	case c.Verdict == VerdictPrevented && f.Addresses && f.At == "before":
		l.prevented++
	case c.Verdict == VerdictShortened && f.Addresses:
		l.shortened++
	}
}

func group(m map[string]*GroupReport, name string) *GroupReport {
	g := m[name]
	if g == nil {
		g = &GroupReport{Name: name}
		m[name] = g
	}
	return g
}

// replayed is a lesson of the replay: its slug, kind and the tools its
// trigger applies to; for a learned lesson, what it was learned from.
type replayed struct {
	slug    string
	kind    lessons.Kind
	tools   []string
	learned *learnedLesson
}

// defaultMinFires is the fewest fires from which a lesson's noise is
// judged: below it, one unlucky fire would read as 100% noise.
const defaultMinFires = 5

// maxReportedRefs caps the calls a learned lesson's report lists.
const maxReportedRefs = 10

// finish computes the per-lesson and per-group figures.
func (t *totals) finish(ls []replayed, minFires int) {
	rep := &t.rep
	rep.MinFires = minFires
	rep.finishPrompts()
	if rep.Calls > 0 {
		rep.InjectionsPer100 = round2(float64(rep.Injections) * 100 / float64(rep.Calls))
		rep.BytesPer100 = round2(float64(rep.InjectedBytes) * 100 / float64(rep.Calls))
	}
	rep.Agents, rep.Projects = sorted(t.agents), sorted(t.projects)
	if lr := t.learn; lr != nil {
		for _, g := range rep.Agents {
			lr.Prevented += g.Prevented
			lr.Shortened += g.Shortened
			lr.Unrelated += g.Unrelated
		}
		if rep.Calls > 0 {
			lr.LearnedFiresBeforeFinePer100 = round2(float64(lr.LearnedFiresBeforeFine) * 100 / float64(rep.Calls))
		}
		rep.Learn = lr
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
			if l.learned == nil {
				rep.NeverFired = append(rep.NeverFired, l.slug)
			}
			if tl == nil {
				continue
			}
		}
		rep.Lessons = append(rep.Lessons, t.lessonReport(l, tl))
	}
	slices.SortStableFunc(rep.Lessons, func(a, b LessonReport) int {
		return cmp.Or(cmp.Compare(b.Fires, a.Fires), cmp.Compare(b.Matches, a.Matches), cmp.Compare(a.Slug, b.Slug))
	})
	slices.Sort(rep.NeverFired)
	var noisy []LessonReport
	for _, l := range rep.Lessons {
		if l.Noise != nil && l.Fires >= minFires && *l.Noise > noisyShare {
			noisy = append(noisy, l)
		}
	}
	slices.SortStableFunc(noisy, func(a, b LessonReport) int {
		return cmp.Or(cmp.Compare(*b.Noise, *a.Noise), cmp.Compare(b.Fires, a.Fires))
	})
	for _, l := range noisy[:min(len(noisy), maxNoisiest)] {
		rep.Noisiest = append(rep.Noisiest, l.Slug)
	}
}

// lessonReport is one lesson's figures.
func (t *totals) lessonReport(l replayed, tl *tally) LessonReport {
	lr := LessonReport{Slug: l.slug, Kind: l.kind, Tools: l.tools, Matches: tl.matches, Fires: tl.fires,
		FiresAfter: tl.after, FiresBeforeFailed: tl.beforeFailed, FiresBeforeFine: tl.beforeFine,
		FiresBeforeRejected: tl.beforeRejected, FiresAddressing: tl.addressing, Refused: tl.refused, Asked: tl.asked,
		Sessions: tl.sessions, Prevented: tl.prevented, Shortened: tl.shortened, Unrelated: tl.unrelated}
	lr.LearnedFrom, lr.Keys = []CallRef{}, []string{}
	if lr.Tools == nil {
		lr.Tools = []string{}
	}
	if ll := l.learned; ll != nil {
		lr.Provisional, lr.Scope = true, ll.scopeName()
		lr.LearnedFrom = ll.info.refs[:min(len(ll.info.refs), maxReportedRefs)]
		lr.Keys = slices.Sorted(maps.Keys(ll.info.keys))
	}
	for tool, n := range t.tools {
		if slices.ContainsFunc(l.tools, func(p string) bool { ok, _ := path.Match(p, tool); return p == tool || ok }) {
			lr.ToolCalls += n
		}
	}
	if lr.ToolCalls > 0 {
		lr.FiresPer100 = round2(float64(lr.Fires) * 100 / float64(lr.ToolCalls))
	}
	if l.kind != lessons.KindHazard && lr.Fires > 0 {
		p := round4(float64(lr.FiresAddressing) / float64(lr.Fires))
		n := round4(1 - p)
		lr.Precision, lr.Noise = &p, &n
	}
	return lr
}

// noisyShare is the noise from which a lesson counts among the
// noisiest; maxNoisiest caps that list.
const (
	noisyShare  = 0.5
	maxNoisiest = 5
)

func sorted(m map[string]*GroupReport) []GroupReport {
	out := []GroupReport{}
	for _, g := range m {
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b GroupReport) int {
		return cmp.Or(cmp.Compare(b.Repeated, a.Repeated), cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Name, b.Name))
	})
	return out
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
func round4(v float64) float64 { return float64(int64(v*10000+0.5)) / 10000 }
