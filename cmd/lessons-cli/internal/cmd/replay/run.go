package replay

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// Learn modes: which candidates of earlier sessions join as provisional
// lessons.
const (
	LearnAll  = "all"  // every candidate at or above minConfidence
	LearnTags = "tags" // only the agents' own #lesson reports
)

// Job is one replay: the lessons, where the logs are, and whether to
// learn as it goes.
type Job struct {
	// Merged holds the lessons to replay (Active) and the config the
	// hook would apply; Warnings name lesson files that did not load.
	Merged scope.Merged
	Read   scanner.ReadOptions
	// Learn is "", LearnAll or LearnTags.
	Learn   string
	Weights scanner.Weights
}

// Run replays the sessions Job.Read finds through Job.Merged's lessons.
// When ctx ends it returns the figures so far with ctx's error.
func Run(ctx context.Context, job Job) (*Report, error) {
	start := time.Now()
	m, err := engine.Compile(job.Merged, scope.Stamp{})
	if err != nil {
		return nil, err
	}
	t := newTotals()
	in := &t.rep.Input
	in.LessonsLeftOut = []string{}
	for _, w := range job.Merged.Warnings {
		in.LessonsLeftOut = append(in.LessonsLeftOut, w.Error())
	}
	for _, w := range m.Warnings() {
		// Compile also notes tools too big to aggregate: no lesson of
		// theirs is lost, and replay injects none of the aggregates.
		if strings.Contains(w.Error(), "left out of the manifest") {
			in.LessonsLeftOut = append(in.LessonsLeftOut, w.Error())
		}
	}
	in.Lessons = m.Len()
	slugs, err := slugsOf(m)
	if err != nil {
		return nil, err
	}
	var ls []replayed
	for _, r := range job.Merged.Active {
		ls = append(ls, replayed{slug: r.Slug, tools: r.Triggers.ImpliedTools()})
	}
	cfg := job.Merged.Config
	var rr scanner.ReadReport
	if job.Learn == "" {
		pool := sync.Pool{New: func() any { return &engine.Replay{Manifest: m, Config: cfg} }}
		rr, err = scanner.ReadSessions(ctx, job.Read, func(s *scanner.LoggedSession) *sessionResult {
			rp := pool.Get().(*engine.Replay)
			defer pool.Put(rp)
			return simulate(s, rp, slugs, false)
		}, func(r *sessionResult) error {
			t.add(r)
			return nil
		})
	} else {
		l := newLearning(job, m, slugs)
		job.Read.Candidates = true
		rr, err = scanner.ReadSessions(ctx, job.Read, func(s *scanner.LoggedSession) *scanner.LoggedSession { return s },
			func(s *scanner.LoggedSession) error {
				r := l.session(s)
				t.add(r)
				return l.boundary(s)
			})
		t.rep.Learn = l.report()
		ls = append(ls, l.learned...)
	}
	in.Files, in.Formats, in.Skipped = rr.Files, rr.Formats, rr.Skipped
	in.Errors = append(rr.Errors, in.Errors...)
	if in.Errors == nil {
		in.Errors = []string{}
	}
	t.finish(ls)
	t.rep.Duration = time.Since(start)
	return &t.rep, err
}

// slugsOf lists a manifest's slugs by index.
func slugsOf(m *engine.Manifest) ([]string, error) {
	out := make([]string, m.Len())
	for i := range out {
		e, err := m.Entry(i)
		if err != nil {
			return nil, fmt.Errorf("manifest: %w", err)
		}
		out[i] = e.Slug
	}
	return out, nil
}
