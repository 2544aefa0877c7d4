package replay

import (
	"context"
	"math"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// TestLearnCompilesEachLessonLogTimes pins linear learning: with a new
// lesson from every session, each learned lesson is compiled about
// log4(n)+1 times, not once per later session.
func TestLearnCompilesEachLessonLogTimes(t *testing.T) {
	const n = 300
	dir := learningHistory(t, n)
	job := Job{Merged: scope.Merged{Config: lessons.DefaultConfig()}, Learn: LearnAll, Weights: scanner.DefaultWeights(),
		Read: scanner.ReadOptions{Paths: []string{dir}, Candidates: true}}
	m, err := engine.Compile(job.Merged, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	l := newLearning(job, m)
	learned := 0
	_, err = scanner.ReadSessions(context.Background(), job.Read, func(s *scanner.LoggedSession) *scanner.LoggedSession { return s },
		func(s *scanner.LoggedSession) error {
			env, err := l.env(s.Project)
			if err != nil {
				return err
			}
			return l.boundary(s, simulate(s, env, nil))
		})
	if err != nil {
		t.Fatal(err)
	}
	compiled := 0
	for _, sh := range l.shelves {
		compiled += sh.compiled
	}
	for _, ll := range l.order {
		if ll.live {
			learned++
		}
	}
	if learned < n/2 {
		t.Fatalf("%d lessons learned from %d sessions", learned, n)
	}
	if bound := float64(learned) * (math.Log(float64(learned))/math.Log(fanIn) + 2); float64(compiled) > bound {
		t.Errorf("%d lesson compiles for %d learned lessons, over %0.f", compiled, learned, bound)
	}
}

func TestVerdict(t *testing.T) {
	fire := func(provisional, addresses bool, at string) TraceFire {
		return TraceFire{Slug: "x", Provisional: provisional, Addresses: addresses, At: at}
	}
	for _, tt := range []struct {
		outcome string
		fired   []TraceFire
		want    string
	}{
		{"failed", []TraceFire{fire(true, true, "before")}, VerdictPrevented},
		{"failed", []TraceFire{fire(true, false, "before"), fire(true, true, "after")}, VerdictShortened},
		{"failed", []TraceFire{fire(true, false, "before")}, VerdictUnrelated},
		{"failed", []TraceFire{fire(false, true, "before")}, ""},
		{"fine", []TraceFire{fire(true, false, "before")}, ""},
		{"failed", []TraceFire{fire(true, false, "after")}, ""},
	} {
		c := TraceCall{Outcome: tt.outcome, Fired: tt.fired}
		if got := verdict(&c); got != tt.want {
			t.Errorf("verdict(%s, %+v) = %q, want %q", tt.outcome, tt.fired, got, tt.want)
		}
	}
}
