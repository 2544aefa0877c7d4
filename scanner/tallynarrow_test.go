package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestNarrowedNotToACount: a fix learned for a check that most calls of
// the command pass is narrowed to the failure's error line; a count of
// errors ("Found 2 errors.") names none and comes after every failure of
// the check, whatever failed, so the lesson is narrowed to the line that
// names what failed instead. Before, "run the formatter first" came
// after every lint failure of the check.
func TestNarrowedNotToACount(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	fmtFail := "Checked 40 files in 12ms.\nsrc/cart.ts format ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n  × File content differs from formatting output\nFound 2 errors."
	writeClaude(t, dir, "/p", "s1", []step{
		run("npm run check", 1, fmtFail),
		run("npm run format", 0, "Formatted 1 file in 3ms."),
		run("npm run check", 0, "Checked 40 files in 11ms. No fixes applied."),
	})
	var fine []step
	for range 10 {
		fine = append(fine, run("npm run check", 0, "Checked 40 files in 10ms. No fixes applied."))
	}
	writeClaude(t, dir, "/p", "s2", fine)
	scan(t, state, Options{Paths: []string{dir}})
	lint := "src/api.ts:3:7 lint/style/useConst ━━━━━━━━━━━━━━━━━━━━\n  × This let declares a variable that is only assigned once.\nFound 2 errors."
	saw := false
	for _, c := range candidates(t, state) {
		if c.Kind != KindPrecondition || !strings.Contains(c.Summary, "npm run format") {
			continue
		}
		saw = true
		for _, p := range c.Triggers.Errors {
			re, err := lessons.CompilePattern(p)
			if err != nil {
				t.Fatal(err)
			}
			if ok, _ := re.MatchString(lint); ok {
				t.Errorf("error trigger %q comes after a lint failure the formatter does not fix", p)
			}
			if ok, _ := re.MatchString(fmtFail); !ok {
				t.Errorf("error trigger %q misses the formatting failure", p)
			}
		}
	}
	if !saw {
		t.Error("no lesson to run the formatter first")
	}
}
