package replay

import (
	"context"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// One repository worked in two checkouts: a failure fixed in the first
// comes back in the second. Read as two projects it is no repeat and
// the lesson learned in the first stays there; --as-project reads the
// history as one project, so the lesson cuts the second failure short
// (seen once, it is said after its error).
func TestAsProjectJoinsCheckouts(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, cwd := range []string{"/home/dev/shop", "/home/dev/worktrees/shop-fix-cart"} {
		l := newClaudeLog([]string{"s1", "s2"}[i], cwd, start.Add(time.Duration(i)*time.Hour))
		l.bash("make deploy", "Exit code 2\nerror: STAGE is not set", true)
		l.bash("STAGE=staging make deploy", "deployed", false)
		l.write(t, dir)
	}
	run := func(project string) *Report {
		t.Helper()
		rep, err := Run(context.Background(), Job{Merged: scope.Merged{Config: lessons.DefaultConfig()}, Learn: LearnAll,
			Weights: scanner.DefaultWeights(), Read: scanner.ReadOptions{Paths: []string{dir}, Project: project}})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := run(""); rep.Repeated != 0 || rep.Learn.Prevented != 0 || len(rep.Projects) != 2 {
		t.Errorf("two checkouts read as their directories: %d repeated, %d prevented, %d projects; want 0, 0, 2",
			rep.Repeated, rep.Learn.Prevented, len(rep.Projects))
	}
	rep := run("shop")
	if rep.Repeated != 1 || rep.Learn.Shortened != 1 || len(rep.Projects) != 1 || rep.Projects[0].Name != "shop" {
		t.Errorf("--as-project shop: %d repeated, %d shortened, projects %+v; want 1, 1, [shop]",
			rep.Repeated, rep.Learn.Shortened, rep.Projects)
	}
}
