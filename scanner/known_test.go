package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestKnownFailure: a test that fails before the agent changed anything,
// in session after session of a project, becomes a lesson at that
// failure saying so; a failure after the agent's own edit does not count.
func TestKnownFailure(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	fail := "--- FAIL: TestClock (0.00s)\n    clock_test.go:9: want 09:00 in Europe/Paris, got 08:00\nFAIL\tshop/clock\t0.01s"
	for _, id := range []string{"s1", "s2", "s3"} {
		writeClaude(t, dir, "/p", id, []step{
			run("go test ./...", 1, fail),
			write("/p/cart/discount.go", "package cart"),
			run("go build ./...", 0, ""),
		})
	}
	writeClaude(t, dir, "/p", "s4", []step{ // after the agent's change: not counted
		write("/p/cart/tax.go", "package cart"),
		run("go test ./...", 1, fail),
	})
	scan(t, state, Options{Paths: []string{dir}})
	var known []Candidate
	for _, c := range candidates(t, state) {
		if c.Kind == KindKnown {
			known = append(known, c)
		}
	}
	if len(known) != 1 {
		t.Fatalf("%d known-failure candidates, want 1", len(known))
	}
	c := known[0]
	if len(c.Sessions) != 3 || c.Confidence < lessons.DefaultConfig().MinConfidence {
		t.Errorf("known failure seen in %d sessions, confidence %.2f; want 3 sessions, at least minConfidence", len(c.Sessions), c.Confidence)
	}
	if !strings.Contains(c.Solution, "3 sessions") || !strings.Contains(c.Solution, "Do not revert") {
		t.Errorf("solution %q: want the count of sessions and what not to do", c.Solution)
	}
	if len(c.Triggers.Errors) != 1 || len(c.Triggers.Commands) != 1 {
		t.Fatalf("triggers %+v: want one command and one error pattern", c.Triggers)
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString(fail); !ok {
		t.Errorf("error trigger %q does not match the failure", c.Triggers.Errors[0])
	}
	l := ToLesson(c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("known-failure lesson does not validate: %v", ps)
	}
}

// TestKnownFailureNeedsTwoSessions: seen once, it stays below
// minConfidence.
func TestKnownFailureNeedsTwoSessions(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{run("make e2e", 2, "make: *** [e2e] Error 127\nsh: playwright: command not found")})
	scan(t, state, Options{Paths: []string{dir}})
	for _, c := range candidates(t, state) {
		if c.Kind == KindKnown && c.Confidence >= lessons.DefaultConfig().MinConfidence {
			t.Errorf("a failure seen in one session scored %.2f", c.Confidence)
		}
	}
}

func TestGotPast(t *testing.T) {
	cases := []struct {
		failed, worked string
		want           bool
	}{
		{"go test ./...", "go test -count=1 ./...", true},
		{"make biuld", "make build", true},
		{"npm run e2e", "npm run typecheck", false},
		{"go test ./...", "go build ./...", false},
	}
	for _, c := range cases {
		if got := gotPast(&Call{Tool: "Bash", Command: c.failed}, &Call{Tool: "Bash", Command: c.worked}); got != c.want {
			t.Errorf("gotPast(%q, %q) = %v, want %v", c.failed, c.worked, got, c.want)
		}
	}
}
