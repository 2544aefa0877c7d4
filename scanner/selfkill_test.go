package scanner

import (
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// A kill whose pattern matched the agent's own shell ends that shell:
// alone on its line the stop worked, but with steps after it (a restart,
// a check) they never ran, and the call failed, even when its last step
// is a probe whose failure would be an answer. Made in two sessions, it
// is a known failure whatever the sessions had changed: a lesson at the
// next kill's failure says the kill ended its own shell.
func TestKillThatEndsItsOwnShellIsAKnownFailure(t *testing.T) {
	restart := `pkill -f "python train.py" 2>/dev/null; sleep 2; nohup python train.py > train.log 2>&1 &`
	check := `pkill -f "python train.py"; sleep 1; ps aux | grep train | wc -l`
	steps := []step{
		write("/p/train.py", "print('train')\n"),
		run(restart, 144, ""),
		run(check, 144, ""),
		run(`pkill -f "vite --port 5173"`, 143, ""),
	}
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", steps)
	calls, failed, _ := readOutcomes(t, dir)
	want := []string{"Write =fine", "Bash " + restart + "=failed", "Bash " + check + "=failed", `Bash pkill -f "vite --port 5173"=stopped`}
	if !slices.Equal(calls, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if failed != 2 {
		t.Errorf("%d failed calls, want 2: the kills with steps after them", failed)
	}

	known := knownInSessions(t, 2, steps...)
	if len(known) != 1 {
		t.Fatalf("%d known failures, want 1: the kill", len(known))
	}
	c := known[0]
	if !strings.HasPrefix(c.Summary, "`pkill` ended the shell that ran it") || !strings.Contains(c.Solution, "nothing after it on the line ran") {
		t.Errorf("summary %q, solution %q: want the kill that ended its own shell", c.Summary, c.Solution)
	}
	l := ToLesson(c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("the lesson does not validate: %v", ps)
	}
	for _, call := range []lessons.ToolCall{
		{Tool: "Bash", Command: `pkill -f "node server.js"; sleep 1; node server.js &`, Error: "Exit code 144"},
		{Tool: "Bash", Command: `pkill -9 -f worker`, Error: "Exit code 137"},
	} {
		if !firesOn(l, []lessons.ToolCall{call}) {
			t.Errorf("the lesson misses %q failing with %q", call.Command, call.Error)
		}
	}
	for _, call := range []lessons.ToolCall{
		{Tool: "Bash", Command: `pkill -f "node server.js"; npm test`, Error: "Exit code 1\nFAIL src/a.test.ts"},
		{Tool: "Bash", Command: `npm test`, Error: "Exit code 144"},
	} {
		if firesOn(l, []lessons.ToolCall{call}) {
			t.Errorf("the lesson matches %q failing with %q", call.Command, call.Error)
		}
	}
}

func TestSignalExitClass(t *testing.T) {
	for out, want := range map[string]string{
		"Exit code 144":                 "killed by a signal",
		"Exit code 137\n":               "killed by a signal",
		"Process exited with code 143":  "killed by a signal",
		"Exit code 141":                 "no output", // SIGPIPE: a reader that had read enough
		"Exit code 1":                   "no output",
		"Exit code 137\nKilled: 9 oops": "Killed: N oops",
	} {
		if got := lessons.ErrorClass(out); got != want {
			t.Errorf("ErrorClass(%q) = %q, want %q", out, got, want)
		}
	}
}
