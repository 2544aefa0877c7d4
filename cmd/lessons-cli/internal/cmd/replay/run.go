package replay

import (
	"cmp"
	"context"
	"errors"
	"io"
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
	// Trace, when set, receives one JSON line per call (TraceCall).
	Trace io.Writer
	// MinFires is the fewest fires from which a lesson's noise is
	// judged; 0 means defaultMinFires.
	MinFires int
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
	var ls []replayed
	for _, r := range job.Merged.Active {
		ls = append(ls, replayed{slug: r.Slug, kind: r.EffectiveKind(), tools: r.Triggers.ImpliedTools()})
	}
	var tw *traceWriter
	if job.Trace != nil {
		tw = newTraceWriter(job.Trace)
	}
	count := func(r *sessionResult) error {
		if r.copyKeys != nil {
			r.clearCopies(t.copies.mark(r.copyKeys))
		}
		t.add(r)
		if tw != nil {
			return tw.write(r.calls, r.prompts)
		}
		return nil
	}
	cfg := job.Merged.Config
	failures := failurePatterns(job.Merged.Active)
	var rr scanner.ReadReport
	if job.Learn == "" {
		pool := sync.Pool{New: func() any { return &engine.Replay{Manifest: m, Config: cfg} }}
		rr, err = scanner.ReadSessions(ctx, job.Read, func(s *scanner.LoggedSession) *sessionResult {
			rp := pool.Get().(*engine.Replay)
			defer pool.Put(rp)
			r := simulate(s, simEnv{rp: rp, failures: failures}, nil)
			r.copyKeys = keysOf(s)
			return r
		}, count)
	} else {
		l := newLearning(job, m)
		l.failures, l.tracing = failures, tw != nil
		t.learn = &LearnReport{}
		job.Read.Candidates = true
		rr, err = scanner.ReadSessions(ctx, job.Read, func(s *scanner.LoggedSession) *scanner.LoggedSession { return s },
			func(s *scanner.LoggedSession) error {
				env, err := l.env(s.Project)
				if err != nil {
					return err
				}
				r := simulate(s, env, t.copies.mark(keysOf(s)))
				if err := count(r); err != nil {
					return err
				}
				if err := l.boundary(s, r); err != nil || tw == nil {
					return err
				}
				return tw.lessons(l.changed)
			})
		lr := l.report()
		lr.LearnedFiresBeforeFine, lr.UnrelatedFires = t.learn.LearnedFiresBeforeFine, t.learn.UnrelatedFires
		t.learn = lr
		ls = append(ls, l.learned()...)
	}
	if tw != nil {
		err = errors.Join(err, tw.flush())
	}
	in.Files, in.Formats, in.Skipped = rr.Files, rr.Formats, rr.Skipped
	in.Errors = append(rr.Errors, in.Errors...)
	if in.Errors == nil {
		in.Errors = []string{}
	}
	t.finish(ls, cmp.Or(job.MinFires, defaultMinFires))
	t.rep.Duration = time.Since(start)
	return &t.rep, err
}
