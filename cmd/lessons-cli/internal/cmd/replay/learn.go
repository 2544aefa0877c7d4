package replay

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
)

// LearnReport is the learning curve: what the lessons learned from
// earlier sessions did for the failures that came after. docs/replay.md
// defines each figure.
type LearnReport struct {
	Mode string `json:"mode"`
	// Provisional is how many learned lessons applied by the last
	// session, Global and Project how many of them had each scope.
	Provisional int `json:"provisional"`
	Global      int `json:"global"`
	Project     int `json:"project"`
	// Prevented, Shortened and Unrelated count the failed calls of each
	// verdict (a call has at most one).
	Prevented int `json:"prevented"`
	Shortened int `json:"shortened"`
	Unrelated int `json:"unrelated"`
	// UnrelatedFires counts the learned lessons' fires before failed
	// calls they were not learned from.
	UnrelatedFires int `json:"unrelatedFires"`
	// LearnedFiresBeforeFine counts the learned lessons' fires before
	// calls that went fine, and …Per100 per 100 calls replayed.
	LearnedFiresBeforeFine       int     `json:"learnedFiresBeforeFine"`
	LearnedFiresBeforeFinePer100 float64 `json:"learnedFiresBeforeFinePer100Calls"`
}

// ProvisionalPrefix starts the slug of a lesson --learn made.
const ProvisionalPrefix = "learned-"

// maxLearnedFrom caps the failed calls a learned lesson keeps as its
// evidence (its keys are theirs).
const maxLearnedFrom = 50

// learnedLesson is a candidate of the sessions so far, as a lesson.
type learnedLesson struct {
	id     string
	lesson lessons.Lesson
	// ver counts the forms it took (confidence, priority, scope); an
	// entry compiled from an older form is skipped.
	ver int
	// live: it is at or above minConfidence (and a #lesson report under
	// --learn=tags).
	live bool
	// held: a reminder past the most the hook carries (holdReminders);
	// rank is what the hook orders reminders by (scanner.ReviewOrder).
	held bool
	rank scanner.Candidate
	// project is the project it applies to, "" for a global lesson.
	project string
	info    learnedInfo
	sign    string
}

func (l *learnedLesson) scopeName() string {
	if l.project == "" {
		return "global"
	}
	return "project"
}

// learning replays sessions in time order through the lessons given and
// those learned so far; at each session boundary the candidates a scan
// of every earlier session would have proposed join as lessons. Each
// learned lesson is compiled once into a small manifest, and those
// merge as they pile up (a binary counter: each lesson is compiled
// O(log n) times), so learning stays linear in the history.
type learning struct {
	job     Job
	learner *scanner.Learner
	rp      *engine.Replay
	byID    map[string]*learnedLesson
	bySlug  map[string]*learnedLesson
	order   []*learnedLesson
	// shelves hold the compiled learned lessons by project ("" for the
	// global ones).
	shelves map[string]*shelf
	// failures are the manifest's lessons' Addresses, by slug.
	failures map[string][]*lessons.Pattern
	// changed are the lessons the last boundary learned or changed, as
	// the trace shows them (nil unless tracing).
	changed []TraceLesson
	tracing bool
}

func newLearning(job Job, m *engine.Manifest) *learning {
	l := &learning{job: job, learner: scanner.NewLearner(job.Weights), rp: &engine.Replay{Manifest: m, Config: job.Merged.Config},
		byID: map[string]*learnedLesson{}, bySlug: map[string]*learnedLesson{}, shelves: map[string]*shelf{}}
	return l
}

// env is what a session of project replays through: the manifest, and
// the learned lessons that apply there.
func (l *learning) env(project string) (simEnv, error) {
	env := simEnv{rp: l.rp, failures: l.failures, learned: func(slug string) *learnedInfo {
		if ll := l.bySlug[slug]; ll != nil {
			return &ll.info
		}
		return nil
	}}
	for _, key := range []string{"", cmp.Or(project, noProject)} {
		sh := l.shelves[key]
		if sh == nil {
			continue
		}
		env.extra = append(env.extra, sh.extras()...)
	}
	return env, nil
}

// boundary folds the session's candidates in: each new or changed one
// is compiled in its new form, and the form it replaces is skipped.
func (l *learning) boundary(s *scanner.LoggedSession, r *sessionResult) error {
	l.changed = l.changed[:0]
	cands := s.Candidates
	if l.job.Learn == LearnTags {
		// the agent's reports alone: no heuristic record to fold into
		cands = slices.DeleteFunc(slices.Clone(cands), func(c scanner.Candidate) bool { return c.Kind != scanner.KindTag })
	}
	l.learner.Saw(s)
	l.learner.Add(cands)
	cfg := l.job.Merged.Config
	for k, c := range s.Candidates {
		id := l.learner.Resolve(c.ID) // a tag and a retry of one failure are one lesson
		ll := l.byID[id]
		if ll == nil {
			cur, ok := l.learner.Candidate(id)
			if !ok {
				continue // left out of --learn=tags
			}
			les := scanner.ToLesson(cur)
			les.ID, les.Slug = ProvisionalPrefix+id, ProvisionalPrefix+id
			les.NeedsReview = false
			ll = &learnedLesson{id: id, lesson: les, info: learnedInfo{refs: []CallRef{}, keys: map[string]bool{}}}
			l.byID[id], l.bySlug[les.Slug] = ll, ll
			l.order = append(l.order, ll)
		}
		if i := s.CandidateCalls[k]; i >= 0 && len(ll.info.refs) < maxLearnedFrom {
			ref := CallRef{File: s.File, Index: i}
			if !containsRef(ll.info.refs, ref) {
				// a new slice each time: fires of earlier calls keep the
				// evidence they were given
				ll.info.refs = append(ll.info.refs[:len(ll.info.refs):len(ll.info.refs)], ref)
				ll.info.keys[failureKey(&r.calls[i])] = true
			}
		}
	}
	// this session's candidates, and held ones that the commands seen so
	// far show fire on most calls of their command
	var ids []string
	for _, c := range s.Candidates {
		ids = append(ids, l.learner.Resolve(c.ID))
	}
	ids = append(ids, l.learner.Recheck()...)
	for i, id := range ids {
		ll := l.byID[id]
		cur, ok := l.learner.Candidate(id)
		if ll == nil || !ok || slices.Contains(ids[:i], id) {
			continue
		}
		// a failure learned under two kinds is one lesson (the other is folded)
		// live as a team that promotes every candidate at or above
		// minConfidence has it, or as the hook has a reminder (design.md
		// "Reminders")
		ll.rank = scanner.Candidate{ID: id, Signals: cur.Signals, Priority: cur.Priority, Confidence: cur.Confidence, LastSeen: cur.LastSeen}
		reminder, reminds := cur.AsReminder(cfg)
		live := cur.Status != scanner.StatusFolded && (cur.Confidence >= cfg.MinConfidence || reminds) &&
			(l.job.Learn != LearnTags || cur.Kind == scanner.KindTag)
		said := cur
		if live && cur.Confidence < cfg.MinConfidence {
			said = reminder // as the hook says it, after its error
		}
		project := ""
		if sc, p := scanner.DefaultScope(cur); sc == lessons.ScopeProject {
			project = cmp.Or(p, noProject)
		}
		sign := fmt.Sprintf("%v %g %d %s %s %q", live, cur.Confidence, cur.Priority, project, said.Summary, said.Triggers.Errors)
		if sign == ll.sign {
			continue
		}
		if said.Summary != ll.lesson.Summary || !slices.Equal(said.Triggers.Errors, ll.lesson.Triggers.Errors) {
			// a #lesson folded in: the agent's words replace the
			// heuristic's; or a trigger narrowed to its error
			les := scanner.ToLesson(said)
			les.ID, les.Slug, les.NeedsReview = ll.lesson.ID, ll.lesson.Slug, false
			ll.lesson = les
		}
		ll.sign, ll.live, ll.project = sign, live, project
		ll.ver++
		ll.lesson.Confidence, ll.lesson.Priority = cur.Confidence, cur.Priority
		if l.tracing {
			l.changed = append(l.changed, ll.trace(s))
		}
		if !live {
			continue
		}
		sh := l.shelves[project]
		if sh == nil {
			sh = &shelf{key: project, mg: l.job.Merged}
			l.shelves[project] = sh
		}
		if err := sh.add(ll, l.rp.Forget); err != nil {
			return err
		}
	}
	return l.holdReminders(s)
}

// holdReminders holds back, on each shelf, the reminders past the most a
// manifest carries (cmdutil.MaxReminders), in the order the hook keeps
// them (scanner.ReviewOrder), and lets those back in that rose; a held
// one is skipped as a stale form is.
func (l *learning) holdReminders(s *scanner.LoggedSession) error {
	min := l.job.Merged.Config.MinConfidence
	byProject := map[string][]*learnedLesson{}
	for _, ll := range l.order {
		if ll.live && ll.lesson.Confidence < min {
			byProject[ll.project] = append(byProject[ll.project], ll)
		} else if err := l.hold(ll, false, s); err != nil {
			return err
		}
	}
	for _, ls := range byProject {
		if len(ls) > cmdutil.MaxReminders {
			slices.SortFunc(ls, func(a, b *learnedLesson) int { return scanner.ReviewOrder(a.rank, b.rank) })
		}
		for i, ll := range ls {
			if err := l.hold(ll, i >= cmdutil.MaxReminders, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// hold sets whether ll is held back, and traces a change. One let back in
// is compiled again: chunks merged while it was held left it out.
func (l *learning) hold(ll *learnedLesson, held bool, s *scanner.LoggedSession) error {
	if ll.held == held {
		return nil
	}
	ll.held = held
	if l.tracing {
		l.changed = append(l.changed, ll.trace(s))
	}
	if held || !ll.live {
		return nil
	}
	ll.ver++
	return l.shelves[ll.project].add(ll, l.rp.Forget)
}

// trace is the lesson's trace line after session s.
func (l *learnedLesson) trace(s *scanner.LoggedSession) TraceLesson {
	keys := slices.Sorted(maps.Keys(l.info.keys))
	return TraceLesson{Kind: traceKindLesson, File: s.File, Session: s.ID, Slug: l.lesson.Slug, Live: l.live && !l.held,
		Confidence: l.lesson.Confidence, Project: l.project, Summary: l.lesson.Summary, Triggers: l.lesson.Triggers, Keys: keys}
}

func containsRef(refs []CallRef, r CallRef) bool {
	for _, x := range refs {
		if x == r {
			return true
		}
	}
	return false
}

// learned lists the lessons learned, for the per-lesson figures.
func (l *learning) learned() []replayed {
	out := make([]replayed, 0, len(l.order))
	for _, ll := range l.order {
		out = append(out, replayed{slug: ll.lesson.Slug, kind: ll.lesson.EffectiveKind(),
			tools: ll.lesson.Triggers.ImpliedTools(), learned: ll})
	}
	return out
}

func (l *learning) report() *LearnReport {
	lr := &LearnReport{Mode: l.job.Learn}
	for _, ll := range l.order {
		if !ll.live {
			continue
		}
		lr.Provisional++
		if ll.project == "" {
			lr.Global++
		} else {
			lr.Project++
		}
	}
	return lr
}
