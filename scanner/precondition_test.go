package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestPreconditionProblemLeadsWithTheWorld: a precondition fix's problem
// leads with the line about the world (the module not found), not the
// runner's banner before it, so that its trigger narrowed to its error
// comes after that error and not after every run the banner prints in.
func TestPreconditionProblemLeadsWithTheWorld(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	out := func(err string) string {
		return "bun test v1.3.5\n\nsrc/index.test.ts:\n\n# Unhandled error between tests\n-------------------------------\n" + err +
			"\n-------------------------------\n\n 0 pass\n 1 fail\n 1 error"
	}
	writeClaude(t, dir, "/p", "s1", []step{
		run("bun test", 1, out("error: Cannot find module '@acme/core' from '/w/one/src/index.test.ts'")),
		run("bun run build --filter=@acme/core", 0, "built"),
		run("bun test", 0, "3 pass"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	var pre []Candidate
	for _, c := range candidates(t, state) {
		if c.Kind == KindPrecondition {
			pre = append(pre, c)
		}
	}
	if len(pre) != 1 {
		t.Fatalf("%d precondition fixes, want 1", len(pre))
	}
	c := pre[0]
	if !strings.HasPrefix(c.Problem, "error: Cannot find module") {
		t.Fatalf("problem %q: want it to lead with the module not found", c.Problem)
	}
	if !c.narrowToError() {
		t.Fatal("no error trigger")
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString(out("error: Cannot find module '@acme/core' from '/w/two/src/cart.test.ts'")); !ok {
		t.Errorf("error trigger %q misses the same module missing in another checkout", c.Triggers.Errors[0])
	}
	if ok, _ := re.MatchString(out("error: expect(received).toBe(expected)")); ok {
		t.Errorf("error trigger %q comes after any failing run", c.Triggers.Errors[0])
	}
}
