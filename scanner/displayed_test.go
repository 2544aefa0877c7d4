package scanner

import (
	"strings"
	"testing"
	"unicode"

	"github.com/lessons-dev/lessons"
)

// TestErrorLessonOfADrawnError: a failure printed after a spinner and a
// progress line, drawn over with carriage returns and backspaces, came
// back in a second session with other frames. The lesson's summary,
// example and pattern hold the error as the terminal showed it, and no
// control character; the pattern matches the second session's output as
// printed.
func TestErrorLessonOfADrawnError(t *testing.T) {
	dir := t.TempDir()
	first := "Resolving |\b/\b-\b\\\b\r\x1b[2K[##    ] 40%\r[######] 100%\rerror: lockfile had changes, but lockfile is frozen\n"
	again := "⠋ Fetching\r⠙ Fetching\r⠹ Fetching\rerror: lockfile had changes, but lockfile is frozen\nDone in 3s"
	writeClaude(t, dir, "/p", "s1", []step{write("/p/package.json", "{}"), run("bun install --frozen-lockfile", 1, first)})
	writeClaude(t, dir, "/p", "s2", []step{write("/p/src/a.ts", "x"), run("bun install --frozen-lockfile", 1, again)})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	control := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' })
	}
	texts := append([]string{c.Summary}, c.Triggers.Errors...)
	for _, m := range c.Examples.Match {
		texts = append(texts, m.Error)
	}
	for _, s := range texts {
		if control(s) {
			t.Errorf("%q holds a control character: want the error as displayed", s)
		}
	}
	if !strings.Contains(c.Summary, "error: lockfile had changes") || strings.Contains(c.Summary, "100%") {
		t.Errorf("summary %q: want the error, not the progress drawn before it", c.Summary)
	}
	if len(c.Triggers.Errors) == 0 || !errorFires(t, c, again) || !errorFires(t, c, first) {
		t.Errorf("error trigger %q misses the output as printed", c.Triggers.Errors)
	}
	l := ToLesson(c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("the lesson does not validate: %v", ps)
	}
}
