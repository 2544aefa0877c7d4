//go:build unix

package replay

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// BenchmarkLearn replays generated histories in which every session
// learns a lesson: linear learning keeps the time for 2,000 sessions
// within 6× the time for 500.
func BenchmarkLearn(b *testing.B) {
	for _, n := range []int{500, 2000} {
		dir := learningHistory(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				rep := learnOn(b, dir)
				if rep.Learn.Provisional < n/2 {
					b.Fatalf("%d lessons learned from %d sessions", rep.Learn.Provisional, n)
				}
			}
			// CPU time says more than wall time on a shared machine.
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

func learnOn(t testing.TB, dir string) *Report {
	t.Helper()
	mg := scope.Merged{Config: lessons.DefaultConfig()}
	rep, err := Run(context.Background(), Job{Merged: mg, Learn: LearnAll, Weights: scanner.DefaultWeights(),
		Read: scanner.ReadOptions{Paths: []string{dir}}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
