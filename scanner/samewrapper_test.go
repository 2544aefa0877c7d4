package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestOneLessonPerWrapper: a tool missing from PATH, run through the
// project's tool manager in one session (mise x hk --) and through the
// same manager another way in the next (mise exec --): one lesson, not
// two for the team to review, and it is quiet before either form.
// Before, each form was a candidate of its own, and each fired before
// the other's fix.
func TestOneLessonPerWrapper(t *testing.T) {
	dir := t.TempDir()
	notFound := "zsh:1: command not found: hk"
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/hk.pkl", "hooks"), // a change first: no failure that comes with the checkout
		run("hk install --mise && git status --short", 127, notFound),
		run("mise x hk -- hk install --mise && git status --short", 0, "installed hooks"),
	})
	writeClaude(t, dir, "/p", "s2", []step{
		write("/p/hk.pkl", "hooks"),
		run("hk install --mise", 127, notFound),
		run("mise exec -- hk install --mise", 0, "installed hooks"),
	})
	var wrap []Candidate
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindRetry && strings.Contains(c.Summary, "run it through `mise") {
			wrap = append(wrap, c)
		}
	}
	if len(wrap) != 1 {
		t.Fatalf("lessons to run hk through mise: %q, want one", summaries(wrap))
	}
	for _, cmd := range []string{"mise x hk -- hk install", "mise exec -- hk install"} {
		if fires(t, wrap[0], lessons.ToolCall{Tool: "Bash", Command: cmd}) {
			t.Errorf("%q fires before the fix %q", wrap[0].Summary, cmd)
		}
	}
	if !fires(t, wrap[0], lessons.ToolCall{Tool: "Bash", Command: "hk install"}) {
		t.Errorf("%q is silent before hk install", wrap[0].Summary)
	}
}
