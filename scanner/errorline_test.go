package scanner

import (
	"strings"
	"testing"
)

// TestNoLessonOnALineThatSaysNothingFailed: a shell command fails in two
// sessions with a long output no line of which says what went wrong (an
// installer's progress, a process table a pipeline then failed on). Its
// first line, which the error line falls back to, is no error: no lesson
// on the error and no known failure is keyed on it, where before both
// were ("`bun add` failed with: Resolving dependencies"). A short output
// is all message, and still gives one.
func TestNoLessonOnALineThatSaysNothingFailed(t *testing.T) {
	dir := t.TempDir()
	progress := "Resolving dependencies\nResolved, downloaded and extracted [12]\nSaved lockfile\n+ left-pad@1.3.0\n+ chalk@5.3.0\n2 packages installed [1.20s]"
	table := "  PID  PPID     ELAPSED %CPU %MEM CMD\n  101     1    01:02:03  0.0  0.1 /sbin/init\n  202   101       00:10  1.5  2.0 node server.js\n  303   101       00:05  0.3  0.4 vite\n  404   202       00:01  0.0  0.1 sh"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("bun add left-pad chalk", 1, progress),
			run("ps -eo pid,ppid,etime,pcpu,pmem,cmd | head -5", 1, table),
			run("make deploy", 2, "This command requires approval"),
			run("ls", 0, "a.go"),
		})
	}
	saw := false
	for _, c := range candidatesOf(t, dir) {
		for _, e := range c.Examples.Match {
			if strings.Contains(e.Error, "Resolving dependencies") || strings.Contains(e.Error, "ELAPSED") {
				t.Errorf("%s candidate %q keyed on a line that says nothing failed: %q", c.Kind, c.Summary, e.Error)
			}
			saw = saw || strings.Contains(e.Error, "requires approval")
		}
	}
	if !saw {
		t.Error("no lesson on the one-line refusal: a short output is all message")
	}
}
