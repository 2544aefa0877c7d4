package replay

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// LearnReport is the learning curve: the failures that repeated an
// earlier session's (same command family, same error class), and how
// many of those the lessons learned from the earlier sessions caught.
type LearnReport struct {
	Mode string `json:"mode"`
	// Provisional is how many lessons had been learned by the last
	// session.
	Provisional int           `json:"provisional"`
	Repeated    int           `json:"repeated"`
	Caught      int           `json:"caught"`
	Agents      []GroupReport `json:"agents"`
	Projects    []GroupReport `json:"projects"`
}

// GroupReport is the learning curve of one agent or one project.
type GroupReport struct {
	Name     string `json:"name"`
	Repeated int    `json:"repeated"`
	Caught   int    `json:"caught"`
}

// ProvisionalPrefix starts the slug of a lesson --learn made.
const ProvisionalPrefix = "learned-"

// learning replays sessions in time order through the lessons given and
// those learned so far; at each session boundary the candidates a scan
// of every earlier session would have proposed join as lessons.
type learning struct {
	job      Job
	base     []scope.Resolved
	learner  *scanner.Learner
	rp       *engine.Replay
	slugs    []string
	made     map[string]lessons.Lesson // by candidate id, made once
	learned  []replayed
	signed   string // what the current manifest was compiled from
	current  int    // provisional lessons in it
	seen     map[string]bool
	agents   map[string]*GroupReport
	projects map[string]*GroupReport
	repeated int
	caught   int
}

func newLearning(job Job, m *engine.Manifest, slugs []string) *learning {
	return &learning{
		job: job, base: job.Merged.Active, learner: scanner.NewLearner(job.Weights),
		rp: &engine.Replay{Manifest: m, Config: job.Merged.Config}, slugs: slugs,
		made: map[string]lessons.Lesson{}, seen: map[string]bool{},
		agents: map[string]*GroupReport{}, projects: map[string]*GroupReport{},
	}
}

// session replays one session and counts its repeated failures: those
// whose family and class failed in an earlier session.
func (l *learning) session(s *scanner.LoggedSession) *sessionResult {
	r := simulate(s, l.rp, l.slugs, true)
	for _, f := range r.failures {
		if !l.seen[f.key] {
			continue
		}
		caught := slices.ContainsFunc(f.caughtBy, func(slug string) bool { return strings.HasPrefix(slug, ProvisionalPrefix) })
		for _, g := range []*GroupReport{group(l.agents, s.Agent), group(l.projects, cmp.Or(s.Project, "(no project)"))} {
			g.Repeated++
			if caught {
				g.Caught++
			}
		}
		l.repeated++
		if caught {
			l.caught++
		}
	}
	for _, f := range r.failures {
		l.seen[f.key] = true
	}
	return r
}

func group(m map[string]*GroupReport, name string) *GroupReport {
	g := m[name]
	if g == nil {
		g = &GroupReport{Name: name}
		m[name] = g
	}
	return g
}

// boundary folds the session's candidates in and, when the lessons they
// make changed, compiles the manifest the next session replays through.
func (l *learning) boundary(s *scanner.LoggedSession) error {
	cs := s.Candidates
	if l.job.Learn == LearnTags {
		// the agent's reports alone: no heuristic record to merge into
		cs = slices.DeleteFunc(slices.Clone(cs), func(c scanner.Candidate) bool { return c.Kind != scanner.KindTag })
	}
	if !l.learner.Add(cs) {
		return nil
	}
	cfg := l.job.Merged.Config
	var add []scope.Resolved
	var sign strings.Builder
	for _, c := range l.learner.Candidates() {
		if c.Confidence < cfg.MinConfidence || (l.job.Learn == LearnTags && c.Kind != scanner.KindTag) {
			continue
		}
		les, ok := l.made[c.ID]
		if !ok {
			les = scanner.ToLesson(c)
			les.ID, les.Slug = ProvisionalPrefix+c.ID, ProvisionalPrefix+c.ID
			les.NeedsReview = false
			l.made[c.ID] = les
		}
		les.Confidence, les.Priority = c.Confidence, c.Priority
		add = append(add, scope.Resolved{Lesson: les, Scope: lessons.ScopeGlobal})
		fmt.Fprintf(&sign, "%s %g %d\n", c.ID, c.Confidence, c.Priority)
	}
	if sign.String() == l.signed {
		return nil
	}
	l.signed, l.current = sign.String(), len(add)
	mg := l.job.Merged
	mg.Active = append(slices.Clip(l.base), add...)
	m, err := engine.Compile(mg, scope.Stamp{})
	if err != nil {
		return err
	}
	if l.slugs, err = slugsOf(m); err != nil {
		return err
	}
	l.rp = &engine.Replay{Manifest: m, Config: cfg}
	known := map[string]bool{}
	for _, r := range l.learned {
		known[r.slug] = true
	}
	for _, r := range add {
		if !known[r.Slug] {
			l.learned = append(l.learned, replayed{slug: r.Slug, tools: r.Triggers.ImpliedTools(), provisional: true})
		}
	}
	return nil
}

func (l *learning) report() *LearnReport {
	return &LearnReport{Mode: l.job.Learn, Provisional: l.current, Repeated: l.repeated, Caught: l.caught,
		Agents: sorted(l.agents), Projects: sorted(l.projects)}
}

func sorted(m map[string]*GroupReport) []GroupReport {
	out := []GroupReport{}
	for _, g := range m {
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b GroupReport) int {
		return cmp.Or(cmp.Compare(b.Repeated, a.Repeated), cmp.Compare(a.Name, b.Name))
	})
	return out
}
