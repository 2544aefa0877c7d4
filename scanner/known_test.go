package scanner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestKnownFailure: a test that fails before the agent changed anything,
// in session after session of a project, becomes a lesson at that
// failure saying so; the same failure after the agent's own edit, in a
// later session, counts as one more session of it.
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
	writeClaude(t, dir, "/p", "s4", []step{ // after the agent's change: support
		write("/p/cart/tax.go", "package cart"),
		run("go test ./...", 1, fail),
	})
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 {
		t.Fatalf("%d known-failure candidates, want 1", len(known))
	}
	c := known[0]
	if len(c.Sessions) != 4 || !atFailure(c) {
		t.Errorf("known failure seen in %d sessions, confidence %.2f; want 4 sessions, said at the failure", len(c.Sessions), c.Confidence)
	}
	if !strings.Contains(c.Solution, "4 sessions") || !strings.Contains(c.Solution, "Do not revert") {
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

// TestKnownFailureAfterAChangeIsSupport: a failure that comes after the
// session's own edit is no known failure by itself, in any number of
// sessions (the edit may have caused it), but once the same failure was
// seen before any change, each session it comes back in counts: seen
// clean once and again after an edit, it is a lesson.
func TestKnownFailureAfterAChangeIsSupport(t *testing.T) {
	fail := "FAILED tests/test_tz.py::test_paris - AssertionError: want 09:00 in Europe/Paris, got 08:00"
	afterEdit := func(dir, id string) {
		writeClaude(t, dir, "/p", id, []step{write("/p/shop/tax.py", "RATE = 2"), run("pytest", 1, fail)})
	}
	knownOf := func(state string) []Candidate {
		return ofKind(candidates(t, state), KindKnown)
	}
	dir, state := t.TempDir(), t.TempDir()
	afterEdit(dir, "a1")
	afterEdit(dir, "a2")
	scan(t, state, Options{Paths: []string{dir}})
	if k := knownOf(state); len(k) != 0 {
		t.Fatalf("%d known failures from failures after the agent's edits only, want none", len(k))
	}
	dir, state = t.TempDir(), t.TempDir()
	writeClaude(t, dir, "/p", "c1", []step{run("pytest", 1, fail), write("/p/shop/cart.py", "X = 1")})
	scan(t, state, Options{Paths: []string{dir}})
	afterEdit(dir, "a3")
	scan(t, state, Options{Paths: []string{dir}})
	k := knownOf(state)
	if len(k) != 1 || len(k[0].Sessions) != 2 || !atFailure(k[0]) {
		t.Fatalf("known failures %+v: want one, seen in 2 sessions, said at the failure", k)
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

// TestKnownFailureOfAFileTool: a file tool refused on the same folder
// before any change, in session after session and under a new file name
// each time, is a known failure of that folder, whatever the tool (a hook
// that refuses writes there refuses reads), said after the error; missing
// files guessed, in one folder or in two, are not one.
func TestKnownFailureOfAFileTool(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	refused := func(p string) string {
		return "Refused: " + p + " is inside a guarded folder (policy hook)."
	}
	for i, name := range []string{"calm-otter", "busy-heron", "quiet-lynx"} {
		p := "/home/u/.agent/drafts/" + name + ".md"
		tool := "Write"
		if i == 2 {
			tool = "Read"
		}
		writeClaude(t, dir, "/p", "s"+string(rune('1'+i)), []step{
			call(tool, map[string]any{"file_path": p, "content": "# plan"}, true, refused(p)),
			run("go build ./...", 0, ""),
		})
	}
	for i, p := range []string{"/p/docs/setup.md", "/p/notes/todo.md", "/p/docs/install.md"} {
		writeClaude(t, dir, "/p", "m"+string(rune('1'+i)), []step{
			call("Read", map[string]any{"file_path": p}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": p + "x"}, true, "Error: File not found: "+p+"x"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	cfg := lessons.DefaultConfig()
	var folder []Candidate
	for _, c := range known {
		if c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
			t.Errorf("%s: confidence %.2f, reminder %v: want said after the error, not proposed", c.Summary, c.Confidence, c.Reminder(cfg))
		}
		if len(c.Sessions) > 1 {
			folder = append(folder, c)
		}
	}
	if len(folder) != 1 {
		t.Fatalf("%d known failures seen in more than one session (of %d), want 1: the guarded folder", len(folder), len(known))
	}
	c := folder[0]
	if len(c.Triggers.Tools) != 0 || len(c.Sessions) != 3 || !slices.Equal(c.Triggers.Paths, []string{"drafts/*.md"}) || len(c.Triggers.Errors) != 1 {
		t.Fatalf("known failure of %v on %v, %d sessions, errors %v: want any file tool on drafts/*.md in 3 sessions, with its error", c.Triggers.Tools, c.Triggers.Paths, len(c.Sessions), c.Triggers.Errors)
	}
	l := ToLesson(c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("lesson does not validate: %v", ps)
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	next := refused("/home/u/.agent/drafts/new-name.md")
	if ok, _ := re.MatchString(next); !ok {
		t.Errorf("error trigger %q does not match the refusal of another file of the folder", c.Triggers.Errors[0])
	}
}

// TestKnownFailureOfABrokenTool: a tool that fails before any change
// with an error about itself, not the call (its own binary missing),
// in two sessions and on other paths each time, is a known failure of
// the tool, whatever the path; its lesson comes after that error.
func TestKnownFailureOfABrokenTool(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	broken := "ENOENT: no such file or directory, posix_spawn '/opt/agent/1.2.3/bin/search'"
	for i, p := range []string{"/p/src/cart", "/p/docs"} {
		writeClaude(t, dir, "/p", "s"+string(rune('1'+i)), []step{
			call("Grep", map[string]any{"pattern": "func Total", "path": p}, true, broken),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	cfg := lessons.DefaultConfig()
	if len(known) != 1 || len(known[0].Sessions) != 2 || known[0].Confidence >= cfg.MinConfidence || !known[0].Reminder(cfg) {
		t.Fatalf("known failures %+v: want one of the Grep tool, seen in 2 sessions, said after its error", known)
	}
	c := known[0]
	if !slices.Equal(c.Triggers.Tools, []string{"Grep"}) || len(c.Triggers.Paths) != 0 || len(c.Triggers.Errors) != 1 {
		t.Errorf("triggers %+v: want the Grep tool and its error, on any path", c.Triggers)
	}
	if !strings.Contains(c.Solution, "could not start its own program") || strings.Contains(c.Solution, "narrower call") {
		t.Errorf("solution %q: want the tool's own program named as missing, and the shell or another tool, not a narrower call", c.Solution)
	}
	l := ToLesson(c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("lesson does not validate: %v", ps)
	}
}

// TestErrorLessonSupportedByItsReturn: a failure nothing got past is a
// lesson on its error once it comes back in a second session, even when
// the agent went on editing after it there: the edits did not get past
// it (the same call failed again, and none of its family worked). When a
// call of its family works after the edits, the edits were the fix, and
// the session is no support.
func TestErrorLessonSupportedByItsReturn(t *testing.T) {
	fail := "Error: browserType.launch: Executable doesn't exist at /home/u/.cache/ms-playwright/chromium-1117/chrome-linux/chrome"
	sessions := func(dir string, fixedAfterEdit bool) {
		writeClaude(t, dir, "/p", "s1", []step{write("/p/e2e/cart.spec.ts", "test()"), run("npx playwright test", 1, fail)})
		last := run("npx playwright test", 1, fail)
		if fixedAfterEdit {
			last = run("npx playwright test", 0, "3 passed")
		}
		writeClaude(t, dir, "/p", "s2", []step{
			write("/p/e2e/tax.spec.ts", "test()"),
			run("npx playwright test", 1, fail),
			write("/p/e2e/tax.spec.ts", "test.skip()"),
			last,
		})
	}
	errorLesson := func(dir string) Candidate {
		t.Helper()
		state := t.TempDir()
		scan(t, state, Options{Paths: []string{dir}})
		out := ofKind(candidates(t, state), KindError)
		if len(out) != 1 {
			t.Fatalf("%d lessons on the error, want 1", len(out))
		}
		return out[0]
	}
	dir := t.TempDir()
	sessions(dir, false)
	if c := errorLesson(dir); len(c.Sessions) != 2 || !c.Reminder(lessons.DefaultConfig()) {
		t.Errorf("lesson on the error seen in %d sessions, confidence %.2f: want 2, a reminder", len(c.Sessions), c.Confidence)
	}
	dir = t.TempDir()
	sessions(dir, true)
	if c := errorLesson(dir); len(c.Sessions) != 1 || c.Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Errorf("lesson on the error seen in %d sessions, confidence %.2f: want 1, below minConfidence (the edits got past it)", len(c.Sessions), c.Confidence)
	}
}

// TestKnownFailureOfAMissingProgram: a program the shell does not find
// is one known failure whatever it was asked to do: go doc in one
// session and go build in the next are the same missing toolchain, and
// the lesson comes after any go command that meets it.
func TestKnownFailureOfAMissingProgram(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{run("cd svc && go doc embed", 127, "/bin/bash: line 1: go: command not found")})
	writeClaude(t, dir, "/p", "s2", []step{run("go build ./cmd/server/ 2>&1", 127, "/bin/bash: line 1: go: command not found")})
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 || len(known[0].Sessions) != 2 || !atFailure(known[0]) {
		t.Fatalf("known failures %+v: want one, seen in 2 sessions, said at the failure", known)
	}
	gone := "/bin/bash: line 1: go: command not found"
	if c := known[0]; !firesOn(ToLesson(c), []lessons.ToolCall{{Tool: "Bash", Command: "go test ./...", Error: gone}}) {
		t.Errorf("triggers %+v: want any go command that meets it", c.Triggers)
	}
}

// TestKnownFailureSupportsTheLessonOnItsError: one failure seen by two
// routes, a lesson on its error in one session (it came after an edit)
// and a known failure in the next (before any change), is one failure
// seen in two sessions: the lesson on its error counts both.
func TestKnownFailureSupportsTheLessonOnItsError(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	fail := "Error: P1001: Can't reach database server at `localhost:5432`"
	writeClaude(t, dir, "/p", "s1", []step{write("/p/prisma/seed.ts", "seed()"), run("npx prisma migrate status", 1, fail)})
	scan(t, state, Options{Paths: []string{dir}})
	writeClaude(t, dir, "/p", "s2", []step{run("npx prisma migrate status", 1, fail)})
	scan(t, state, Options{Paths: []string{dir}})
	errs := ofKind(candidates(t, state), KindError)
	if len(errs) != 1 || len(errs[0].Sessions) != 2 || !errs[0].Reminder(lessons.DefaultConfig()) {
		t.Fatalf("lessons on the error %+v: want one, seen in 2 sessions, a reminder", errs)
	}
}

// TestKnownFailureInColour: a test runner that colours its report fails
// the same way before any change in two sessions; the known failure's
// summary quotes the error without the terminal's codes, and its error
// trigger still matches the report as printed.
func TestKnownFailureInColour(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	fail := "\x1b[31m\x1b[1m FAIL \x1b[22m\x1b[39m src/clock.test.ts\n\x1b[31mError: want 09:00 in Europe/Paris, got 08:00\x1b[39m"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("npx vitest run", 1, fail),
			write("/p/src/cart.ts", "export {}"),
			run("npx tsc --noEmit", 0, ""),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 {
		t.Fatalf("%d known-failure candidates, want 1", len(known))
	}
	c := known[0]
	if strings.Contains(c.Summary, "\x1b") || !strings.Contains(c.Summary, "Error: want") {
		t.Errorf("summary %q: want the error line without terminal codes", c.Summary)
	}
	if len(c.Triggers.Errors) != 1 {
		t.Fatalf("triggers %+v: want one error pattern", c.Triggers)
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString(fail); !ok {
		t.Errorf("error trigger %q does not match the failure as printed", c.Triggers.Errors[0])
	}
}

// TestKnownFailureNeedsANamedError: a check fails before any change in
// three sessions and ends with the same count of errors, but each time
// on another file (its findings carry no error word, as a formatter's
// do): a count names nothing, so no known failure. In three more
// sessions the same count comes with the same named error: that one is
// a known failure, known by the named line, not by the count.
func TestKnownFailureNeedsANamedError(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for i, file := range []string{"src/a.ts", "src/b.ts", "src/c.ts"} {
		out := file + " format\n  × Formatter would have printed the following content:\nChecked 12 files in 3ms.\nFound 2 errors.\n× Some errors were emitted while running checks."
		writeClaude(t, dir, "/p", "s"+strconv.Itoa(i), []step{
			run("npm run check", 1, out),
			write("/p/"+file, "export {}"),
			run("git diff --stat", 0, file),
		})
	}
	named := "Found 2 errors.\nsrc/clock.ts:9:3: error TS2322: Type 'string' is not assignable to type 'number'."
	for i := range 3 {
		writeClaude(t, dir, "/q", "n"+strconv.Itoa(i), []step{
			run("npm run typecheck", 2, named),
			write("/q/src/cart.ts", "export {}"),
			run("git diff --stat", 0, "src/cart.ts"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 {
		t.Fatalf("%d known failures, want the named one alone: %v", len(known), summaries(known))
	}
	if c := known[0]; !strings.Contains(c.Summary, "TS2322") || strings.Contains(c.Summary, "Found") {
		t.Errorf("known failure %q: want it known by the named error, not the count", c.Summary)
	}
}

// TestNoFlakeFromACount: a check fails with a count of errors and passes
// when run again unchanged, in two sessions. A count names nothing: the
// rerun passing says the count changed, not that the check fails now and
// then; no lesson says to run it again.
func TestNoFlakeFromACount(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for i := range 2 {
		writeClaude(t, dir, "/p", "s"+strconv.Itoa(i), []step{
			run("npm run check", 1, "Checked 12 files in 3ms.\nFound 3 errors.\n"),
			run("npm run check", 0, "Checked 12 files in 3ms."),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	for _, c := range candidates(t, state) {
		if strings.Contains(c.Solution, "now and then") {
			t.Errorf("%s candidate calls a count of errors flaky: %s / %s", c.Kind, c.Summary, c.Solution)
		}
	}
}

// knownIn writes three sessions of project /p, each the steps given,
// scans them, and returns the known failures found.
func knownIn(t *testing.T, steps ...step) []Candidate {
	t.Helper()
	return knownInSessions(t, 3, steps...)
}

// knownInSessions is knownIn with n sessions.
func knownInSessions(t *testing.T, n int, steps ...step) []Candidate {
	t.Helper()
	dir, state := t.TempDir(), t.TempDir()
	for i := 1; i <= n; i++ {
		writeClaude(t, dir, "/p", "s"+strconv.Itoa(i), steps)
	}
	scan(t, state, Options{Paths: []string{dir}})
	return ofKind(candidates(t, state), KindKnown)
}

// TestKnownMissingProgramSaysSo: a program missing from the machine in
// three sessions, before any change, is a known failure that says the
// program is not installed and not to call it, not that a check "fails
// before any change" and the work must not be reverted.
func TestKnownMissingProgramSaysSo(t *testing.T) {
	known := knownIn(t, run("curl -s localhost:8080/health | jq .status", 127, "/usr/bin/bash: line 1: jq: command not found"),
		run("ls", 0, "go.mod"))
	if len(known) == 0 {
		t.Fatal("no known failure of the missing program")
	}
	for _, c := range known {
		if !strings.HasPrefix(c.Summary, "`jq` is not installed here") || strings.Contains(c.Solution, "revert") || !strings.Contains(c.Solution, "Do not call it") {
			t.Errorf("summary %q, solution %q: want the program named as missing, and not to call it", c.Summary, c.Solution)
		}
	}
}

// TestKnownRefusalSaysSo: the agent's permission settings refuse a test
// run before any change, in two sessions: the lesson says the call was
// refused and to ask, not that the checkout's tests fail.
func TestKnownRefusalSaysSo(t *testing.T) {
	known := knownIn(t, run("npm test", 1, "This command requires approval"), run("ls", 0, "package.json"))
	if len(known) == 0 {
		t.Fatal("no known failure of the refused call")
	}
	for _, c := range known {
		if !strings.Contains(c.Solution, "permission settings refused") || !strings.Contains(c.Solution, "ask the user") ||
			strings.Contains(c.Solution, "checkout") || strings.Contains(c.Solution, "revert") {
			t.Errorf("summary %q, solution %q: want the refusal named, and to ask, not a failing checkout", c.Summary, c.Solution)
		}
	}
}

// TestKnownToolFailureNamesNoCauseItCannotKnow: a search tool's limit met
// before any change in three sessions is not put down to a hook or a
// permission, and the lesson points at a narrower call; a refusal the
// error names as one still says so.
func TestKnownToolFailureNamesNoCauseItCannotKnow(t *testing.T) {
	for _, tc := range []struct {
		tool, path, err string
		refusal         bool
	}{
		{"Grep", "/p/src", "Ripgrep JSON record exceeded 65536 bytes", false},
		{"Read", "/home/dev/.ssh/config", "EPERM: operation not permitted, open '/home/dev/.ssh/config'", true},
	} {
		known := knownIn(t, call(tc.tool, map[string]any{"path": tc.path, "file_path": tc.path, "pattern": "TODO"}, true, tc.err),
			run("ls", 0, "go.mod"))
		if len(known) == 0 {
			t.Errorf("%s: no known failure", tc.tool)
		}
		for _, c := range known {
			blames := strings.Contains(c.Solution, "hook") || strings.Contains(c.Solution, "refus")
			if blames != tc.refusal || !tc.refusal && !strings.Contains(c.Solution, "narrower call") {
				t.Errorf("%s: solution %q: want a refusal named only when the error is one", tc.tool, c.Solution)
			}
		}
	}
}

// TestKnownMissingProgramBehindShellSnapshot: Claude Code's shell snapshot
// prints an alias error before every command; a program missing in two
// sessions is known by its own error, and the lesson quotes that, not the
// snapshot's line.
func TestKnownMissingProgramBehindShellSnapshot(t *testing.T) {
	out := "/Users/me/.claude/shell-snapshots/snapshot-bash-1771171448608-qx2zaj.sh: line 192: alias: --: not found\n/opt/homebrew/bin/bash: line 1: mgrep: command not found"
	session := []step{run("mgrep 'retry budget' src", 127, out), run("grep -rn 'retry budget' src", 0, "src/a.go:3")}
	found := false
	for _, c := range scanned(t, session, session) {
		if strings.Contains(c.Summary+c.Problem+strings.Join(c.Triggers.Errors, " "), "snapshot") {
			t.Errorf("%s %q (problem %q): quotes the shell snapshot", c.Kind, c.Summary, c.Problem)
		}
		found = found || strings.Contains(c.Summary, "mgrep")
	}
	if !found {
		t.Error("no lesson on the missing program")
	}
}

// TestKnownMissingFileIsAReminder: a file tool read one file that is not
// there, in two sessions, and nothing of that name turned up: the known
// failure comes after the tool's "not found" as a reminder, and is not
// proposed (it adds only that the file was missing before). The same in
// opencode's words ("File not found: …").
func TestKnownMissingFileIsAReminder(t *testing.T) {
	for _, missing := range []string{"File does not exist.", "File not found: /p/docs/PLAN.md"} {
		session := []step{call("Read", map[string]any{"file_path": "/p/docs/PLAN.md"}, true, missing)}
		cfg := lessons.DefaultConfig()
		n := 0
		for _, c := range scanned(t, session, session) {
			if c.Kind != KindKnown {
				continue
			}
			n++
			if c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
				t.Errorf("%q: confidence %.2f, reminder %v: want said after the error, not proposed", missing, c.Confidence, c.Reminder(cfg))
			}
		}
		if n == 0 {
			t.Errorf("%q: no known failure of the missing file", missing)
		}
	}
}

// TestKnownFailureOnOtherPathsIsSaidOnEach: Grep's record limit is met
// before any change on a file in two sessions, on its folder in three,
// and on the project's root in two. Each is said after the failure on
// its own path; none is proposed.
func TestKnownFailureOnOtherPathsIsSaidOnEach(t *testing.T) {
	dir := t.TempDir()
	grep := func(path string) step {
		return call("Grep", map[string]any{"path": path, "pattern": "TODO"}, true, "Ripgrep JSON record exceeded 65536 bytes")
	}
	paths := []string{"/p/src/gen/big.ts", "/p/src/gen/big.ts", "/p/src", "/p/src", "/p/src", "/p", "/p"}
	for i, path := range paths {
		writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i), []step{grep(path), run("rg -n TODO "+path, 0, "a.ts:1: TODO")})
	}
	cfg := lessons.DefaultConfig()
	said := 0
	for _, c := range reaching(t, dir) {
		if c.Kind != KindKnown || c.Tool != "Grep" {
			continue
		}
		if c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
			t.Errorf("on %s: confidence %.2f, reminder %v: want said after the failure, not proposed", c.Examples.Match[0].Path, c.Confidence, c.Reminder(cfg))
			continue
		}
		said++
		call := lessons.ToolCall{Tool: "Grep", Path: c.Examples.Match[0].Path, Error: "Ripgrep JSON record exceeded 65536 bytes"}
		if !fires(t, c, call) {
			t.Errorf("on %s: silent after the failure on its path", call.Path)
		}
	}
	if said != 3 {
		t.Errorf("%d said after the failure, want 3: the file, the folder, the root", said)
	}
}

// TestKnownFailureIsSaidNotProposed: a failure met before any change in
// two or three sessions, whatever it says (a permission denial that
// tells the agent what to do, a terse refusal, Read's size limit with or
// without its advice), is said right after the same error comes back,
// and never proposed: it says what failed, not what fixes it.
func TestKnownFailureIsSaidNotProposed(t *testing.T) {
	cfg := lessons.DefaultConfig()
	denied := "Permission for this action was denied by the Claude Code auto mode classifier. Reason: Blocked. " +
		"If you have other tasks that don't depend on this action, continue working on those. " +
		"You should not attempt to work around this denial; do not retry it."
	for _, said := range []string{denied, "This command requires approval"} {
		known := knownIn(t, run("terraform apply -auto-approve", 1, said), run("ls", 0, "go.mod"))
		if len(known) == 0 {
			t.Fatalf("%q: no known failure of the refusal", said)
		}
		for _, c := range known {
			if c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
				t.Errorf("%q: confidence %.2f, reminder %v: want said after the refusal, not proposed", said, c.Confidence, c.Reminder(cfg))
			}
		}
	}
	for _, said := range []string{
		"File content (41230 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file.",
		"File content (41230 tokens) exceeds maximum allowed tokens (25000).",
	} {
		dir, state := t.TempDir(), t.TempDir()
		for _, s := range []string{"s1", "s2"} {
			writeClaude(t, dir, "/p", s, []step{call("Read", map[string]any{"file_path": "/p/docs/ARCHITECTURE.md"}, true, said)})
		}
		scan(t, state, Options{Paths: []string{dir}})
		known := ofKind(candidates(t, state), KindKnown)
		if len(known) != 1 {
			t.Fatalf("%q: %d known failures, want 1", said, len(known))
		}
		if c := known[0]; c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
			t.Errorf("%q: confidence %.2f, reminder %v: want said after the error, not proposed", said, c.Confidence, c.Reminder(cfg))
		}
	}
}

// TestKnownFailureOfGeneratedFiles: Read refuses a task's output file over
// its size limit before any change, in two sessions, each time a file
// with a generated name (a hash) in the same kind of folder. One known
// failure of the folder's files, seen in both sessions, not one per file
// name that never comes back; a file with a name of its own stays keyed
// by that file. The tool's next version words its advice after the error
// anew ("Please use offset…" for "Use offset…"): the same failure still.
func TestKnownFailureOfGeneratedFiles(t *testing.T) {
	tooBig := "File content (41230 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file."
	reworded := "File content (52113 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content."
	for _, tc := range []struct {
		paths    [2]string
		outs     [2]string
		sessions int
		trigger  string
	}{
		{[2]string{"/tmp/agent-1000/s-1/tasks/a99efa5e3c78469b7.output", "/tmp/agent-1000/s-2/tasks/b27c0e9d41f8a3316.output"}, [2]string{tooBig, tooBig}, 2, "tasks/*.output"},
		{[2]string{"/p/docs/ARCHITECTURE.md", "/p/docs/ARCHITECTURE.md"}, [2]string{tooBig, tooBig}, 2, "/p/docs/ARCHITECTURE.md"},
		{[2]string{"/tmp/agent-1000/s-1/tasks/a99efa5e3c78469b7.output", "/tmp/agent-1000/s-2/tasks/b27c0e9d41f8a3316.output"}, [2]string{reworded, tooBig}, 2, "tasks/*.output"},
	} {
		dir, state := t.TempDir(), t.TempDir()
		for i, p := range tc.paths {
			writeClaude(t, dir, "/p", "s"+string(rune('1'+i)), []step{
				call("Read", map[string]any{"file_path": p}, true, tc.outs[i]),
			})
		}
		scan(t, state, Options{Paths: []string{dir}})
		known := ofKind(candidates(t, state), KindKnown)
		if len(known) != 1 || len(known[0].Sessions) != tc.sessions || known[0].Trigger != tc.trigger {
			var got []string
			for _, c := range known {
				got = append(got, fmt.Sprintf("%s (%d sessions)", c.Trigger, len(c.Sessions)))
			}
			t.Errorf("%s: known failures %v, want one on %s seen in %d sessions", tc.paths[0], got, tc.trigger, tc.sessions)
		}
	}
}

// TestKnownFailureOfADirectoryRead: Read is given a directory before any
// change, in two sessions, each time another directory. One known failure
// of the tool on its error, seen in both sessions, whatever the
// directory; not one per folder that never comes back.
func TestKnownFailureOfADirectoryRead(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for i, p := range []string{"/p/src/shared", "/p/docs/guides"} {
		writeClaude(t, dir, "/p", "s"+string(rune('1'+i)), []step{
			call("Read", map[string]any{"file_path": p}, true, "EISDIR: illegal operation on a directory, read '"+p+"'"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 || len(known[0].Sessions) != 2 || len(known[0].Triggers.Paths) != 0 || len(known[0].Triggers.Errors) != 1 {
		var got []string
		for _, c := range known {
			got = append(got, fmt.Sprintf("%q paths %v (%d sessions)", c.Summary, c.Triggers.Paths, len(c.Sessions)))
		}
		t.Fatalf("known failures %v: want one of Read on its error, on any path, seen in 2 sessions", got)
	}
	for _, p := range []string{"/p/lib", "/p/src/shared"} {
		if !errorFires(t, known[0], "EISDIR: illegal operation on a directory, read '"+p+"'") {
			t.Errorf("the lesson does not come after Read of %s", p)
		}
	}
}

// TestKnownFailureWithTheChangesPutAside: in two sessions the agent
// edits a file, the linter fails, and the agent runs it again with its
// changes put aside (git stash … git stash pop), which prints the same
// error: the failure is the checkout's, as if met before any change. A
// known failure, seen in both sessions. Before, a failure after a change
// only supported one found otherwise, and a successful call's output was
// never read.
func TestKnownFailureWithTheChangesPutAside(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	lint := "\n> metrics@0.0.1 lint\n> eslint src/\n\n/home/ann/metrics/src/components/ChartCard.astro\n  47:15  error  Parsing error: Unexpected token {\n\n✖ 1 problem (1 error, 0 warnings)"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/ann/metrics", id, []step{
			write("/home/ann/metrics/src/pages/index.astro", "---\n---\n"),
			run("npm run lint 2>&1", 1, lint),
			run("git stash && npm run lint 2>&1; git stash pop", 0,
				"Saved working directory and index state WIP on main: becaafa Settings\n"+lint+"\nOn branch main\nDropped refs/stash@{0} (1f2e3d4c)"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 || len(known[0].Sessions) != 2 || !strings.Contains(known[0].Summary, "Parsing error") {
		t.Fatalf("known failures %v, want the lint error, seen in both sessions", summaries(known))
	}
}

// TestAsideRun: the shapes of a run with the session's changes put aside
// and taken back, and commands that only stash.
func TestAsideRun(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git stash && npm run lint 2>&1; git stash pop":                           true,
		"git stash -u && cargo test config::tests 2>&1; git stash pop":            true,
		`git stash push -m "wip check" && npx tsc --noEmit; git stash pop`:        true,
		"git stash --include-untracked\nbun test 2>&1 | tail -5\ngit stash apply": true,
		"git stash":                    false,
		"git stash pop":                false,
		"git stash list && git status": false,
	} {
		if got := asideRun(&Call{Tool: "Bash", Command: cmd}); got != want {
			t.Errorf("asideRun(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestKnownFailureAcrossWorktrees: the same check fails before any
// change in two sessions, each in another worktree Claude Code made of
// the repository. One known failure of the repository, seen in both
// sessions, each occurrence naming the worktree it ran in. Before, each
// worktree was a project of its own: two failures seen once.
func TestKnownFailureAcrossWorktrees(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	broken := "error: could not compile `shop` (lib) due to 1 previous error\nerror[E0432]: unresolved import `crate::billing`"
	for id, wt := range map[string]string{"s1": "fix-login", "s2": "add-cart"} {
		writeClaude(t, dir, "/home/ann/shop/.claude/worktrees/"+wt, id, []step{
			run("cargo build", 101, broken),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 || len(known[0].Sessions) != 2 || !slices.Equal(known[0].Projects, []string{"/home/ann/shop"}) {
		t.Fatalf("known failures %v (projects %v), want one of /home/ann/shop seen in both sessions", summaries(known), projectsOf(known))
	}
	for _, p := range known[0].Provenance {
		if !strings.HasPrefix(p.Dir, "/home/ann/shop/.claude/worktrees/") {
			t.Errorf("occurrence %+v: want the worktree it ran in as its dir", p)
		}
	}
}

func projectsOf(cs []Candidate) [][]string {
	var out [][]string
	for _, c := range cs {
		out = append(out, c.Projects)
	}
	return out
}

// TestKnownFailureOfAProgramWhateverItIsGiven: a program with no
// subcommands fails the same way in two sessions, given other folders.
// The known failure's trigger is its family's, the program, not the
// first session's folder: a third session's call on another folder
// meets it.
func TestKnownFailureOfAProgramWhateverItIsGiven(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	fail := "lint: cannot load config: .lintrc.yml: unknown key \"rulez\""
	for id, arg := range map[string]string{"s1": "src", "s2": "docs"} {
		writeClaude(t, dir, "/p", id, []step{
			run("lint -q "+arg, 2, fail),
			run("ls", 0, "src docs"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	known := ofKind(candidates(t, state), KindKnown)
	if len(known) != 1 {
		t.Fatalf("%d known-failure candidates, want 1", len(known))
	}
	l := ToLesson(known[0])
	for _, call := range []lessons.ToolCall{
		{Tool: "Bash", Command: "lint -q tests", Error: fail},
		{Tool: "Bash", Command: "cd /p && lint .", Error: fail},
	} {
		if !firesOn(l, []lessons.ToolCall{call}) {
			t.Errorf("known failure (commands %q) is not said after %q failed the same way", l.Triggers.Commands, call.Command)
		}
	}
}

// TestKnownFailureOnTwoHostsIsOneLesson: a web tool refused on one host
// in two sessions, and on another host in two more, with an error whose
// trigger takes any host: the hook would say the two lessons at one
// failure, so one stays, with the evidence of both.
func TestKnownFailureOnTwoHostsIsOneLesson(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for i, host := range []string{"docs.example.dev", "docs.example.dev", "api.example.org", "api.example.org"} {
		writeClaude(t, dir, "/p", fmt.Sprint("s", i), []step{
			call("WebFetch", map[string]any{"url": "https://" + host + "/guide", "prompt": "summarise"}, true,
				"Unable to verify if domain "+host+" is safe to fetch. This may be due to network restrictions."),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	var said []Candidate
	for _, c := range candidates(t, state) {
		if c.Status == StatusNew {
			said = append(said, c)
		}
	}
	if len(said) != 1 || len(said[0].Sessions) != 4 {
		t.Fatalf("not folded: %v; want one lesson on the refused fetch, seen in 4 sessions", summaries(said))
	}
}

// TestKnownFailureNotWhereTheShellWasLeft: Claude Code's shell keeps the
// folder an earlier `cd` left it in. A script missing from there, in
// three sessions, is the session's doing, not the checkout's: no known
// failure. The same failure from the project's folder is one.
func TestKnownFailureNotWhereTheShellWasLeft(t *testing.T) {
	missing := run("python3 scripts/gen.py", 2, "python3: can't open file '/p/web/scripts/gen.py': [Errno 2] No such file or directory")
	moved := knownIn(t, run("cd web && git status", 0, "On branch main"), missing)
	if len(moved) != 0 {
		t.Errorf("known failures %q after a cd into web/, want none", moved[0].Summary)
	}
	if home := knownIn(t, run("git status", 0, "On branch main"), missing); len(home) != 1 {
		t.Errorf("%d known failures from the project's folder, want 1", len(home))
	}
}

// TestKnownSilentInterpreter: python3 given a script exits 49 and prints
// nothing, before any change, in three sessions (Windows' store alias in
// its place): a known failure of the program, whatever it was given,
// said right after such a failure of it, not after one that printed a
// traceback. A pipeline or a shell that fails silently is no such
// failure: silence is how they say no.
func TestKnownSilentInterpreter(t *testing.T) {
	known := knownIn(t, run(`curl -s localhost:8080/items | python3 -c "import json,sys; print(len(json.load(sys.stdin)))"`, 49, ""),
		run(`node -e "console.log(1)"`, 0, "1"))
	if len(known) != 1 {
		t.Fatalf("%d known failures, want 1: %v", len(known), summaries(known))
	}
	c := known[0]
	if !strings.HasPrefix(c.Summary, "`python3` fails here and prints nothing") || !strings.Contains(c.Solution, "Do not call it again") {
		t.Errorf("summary %q, solution %q: want the interpreter named as not running here", c.Summary, c.Solution)
	}
	for _, tt := range []struct {
		cmd, out string
		want     bool
	}{
		{"python3 scripts/report.py", "Exit code 49", true},
		{"python3 scripts/report.py", "Exit code: 49\nWall time: 0.1 seconds\nOutput:\n", true},
		{"python3 scripts/report.py", "Exit code 49\nTraceback (most recent call last):\nKeyError: 'a'", false},
		{"node scripts/report.js", "Exit code 49", false},
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Bash", Command: tt.cmd, Error: tt.out}); got != tt.want {
			t.Errorf("fires after %q printing %q = %v, want %v (triggers %+v)", tt.cmd, tt.out, got, tt.want, c.Triggers)
		}
	}
	for _, cmd := range []string{"Get-ChildItem -Recurse -Filter java.exe | Select-Object -First 1", `bash -c "test -f .env"`} {
		if known := knownIn(t, run(cmd, 1, ""), run("ls", 0, "a")); len(known) > 0 {
			t.Errorf("%q failing silently: known failures %v, want none", cmd, summaries(known))
		}
	}
}
