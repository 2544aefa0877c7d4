package scanner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestErrorLessonOfTheChecksApplyMode: a formatter's check fails, its
// apply mode runs, and the check passes: a lesson on the check's error,
// a reminder from its first session, that says to run the apply mode
// first. Before, the apply mode was "the tool's workflow, not a
// mistake" (fixWorthy) and nothing was learned, so the same check failed
// in every later session.
func TestErrorLessonOfTheChecksApplyMode(t *testing.T) {
	dir := t.TempDir()
	diff := "Diff in /p/src/ledger.rs:41:\n     fn total(&self) -> u64 {\n-        self.items.iter().map(|i| i.cents).sum()\n+        self.items.iter().map(|i| i.cents).sum::<u64>()\n }"
	writeClaude(t, dir, "/p", "s1", []step{
		run("black --check src/ 2>&1", 1, "would reformat src/ledger.py\nOh no! 1 file would be reformatted."),
		run("black src/ 2>&1", 0, "reformatted src/ledger.py\nAll done! 1 file reformatted."),
		run("black --check src/ 2>&1 && echo ok", 0, "All done! 1 file would be left unchanged.\nok"),
		run("rustfmt --check src/ledger.rs", 1, diff),
		run("rustfmt src/ledger.rs", 0, ""),
		run("rustfmt --check src/ledger.rs && cargo test", 0, "test result: ok. 3 passed"),
	})
	cs := errorCandidates(t, dir)
	cfg := lessons.DefaultConfig()
	for _, fam := range []string{"black", "rustfmt"} {
		i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Family == "`"+fam+"`" })
		if i < 0 {
			t.Errorf("no lesson on the error of %s --check: %+v", fam, cs)
			continue
		}
		c := cs[i]
		if !c.Reminder(cfg) || !strings.Contains(c.Solution, "without --check") || !strings.Contains(c.Solution, "run it before the check") {
			t.Errorf("%s: reminder %v, solution %q: want a reminder that runs the apply mode first", fam, c.Reminder(cfg), c.Solution)
		}
		if c.Confidence >= cfg.MinConfidence {
			t.Errorf("%s: confidence %.2f: a fix only a lesson after the error says is not proposed to the team", fam, c.Confidence)
		}
	}
}

// TestErrorLessonNotFromAnUncheckedApply: the apply mode ran after the
// check failed, but the check never passed after it, or an edit came
// between: what got past the check is not known, so nothing is learned.
func TestErrorLessonNotFromAnUncheckedApply(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("git diff --check", 2, "src/a.go:3: trailing whitespace.\n+x := 1 "),
		run("git diff", 0, "diff --git a/src/a.go b/src/a.go"),
		run("prettier --check web/", 1, "[warn] web/app.ts\n[warn] Code style issues found in the above file."),
		run("prettier --write web/", 0, "web/app.ts 40ms"),
		write("/p/web/app.ts", "export {}"),
		run("prettier --check web/", 0, "All matched files use Prettier code style!"),
	})
	for _, c := range errorCandidates(t, dir) {
		if c.Family == "`git diff`" || c.Family == "`prettier`" {
			t.Errorf("lesson on %s (%q): the check never passed after the apply mode alone", c.Family, c.Solution)
		}
	}
}

// TestErrorLessonOfAHintedFlag: the error's output names a flag, and the
// call that worked adds it while aiming at other files too: the flag is
// the way past the error, said without the task's paths.
func TestErrorLessonOfAHintedFlag(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("git add build/ notes/", 1, "The following paths are ignored by one of your .gitignore files:\nbuild\nhint: Use -f if you really want to add them."),
		run("git add -f build/report.txt notes/", 0, ""),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	if c := cs[0]; !strings.Contains(c.Solution, "`-f`") || strings.Contains(c.Solution, "report.txt") || !c.Reminder(lessons.DefaultConfig()) {
		t.Errorf("solution %q, reminder %v: want the hinted flag, not the task's files, said as a reminder", c.Solution, c.Reminder(lessons.DefaultConfig()))
	}
}

// TestErrorLessonOfAVariableSet: the same commands worked with a
// variable set in front of them (a fix fixWorthy does not read: the
// assignment is a command of its own): the variable is what got past the
// error. Its value is a path of this machine, so it waits, one-off, for
// the same fix in a second session.
func TestErrorLessonOfAVariableSet(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("cd svc && go build ./... 2>&1", 127, "/bin/bash: line 1: go: command not found"),
		run("PATH=$PATH:/usr/local/go/bin && cd svc && go build ./... 2>&1", 0, ""),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || !strings.Contains(cs[0].Solution, "`PATH=$PATH:/usr/local/go/bin` set") {
		t.Fatalf("%+v: want one lesson on the error naming the variable set", cs)
	}
}

// TestErrorLessonOfAVariableTheErrorAsks: the error names a variable
// that is not set, and the same command worked with it set to a URL.
// The error asked for that variable, so its value is the project's
// setting, not one task's: a reminder from the first session that says
// what worked. Before, the value's slashes and digits read as one
// task's path and the lesson stayed capped, so the same error came back
// with nothing said. A variable the error does not name, or set to a
// path of this machine, is one task's: said after the same error too,
// as that task's call whose way to take and not its values, and never
// proposed; before, it was not said at all.
func TestErrorLessonOfAVariableTheErrorAsks(t *testing.T) {
	cfg := lessons.DefaultConfig()
	cmd := "cd /p && uv run python -c \"\nimport app.db\nprint(app.db.engine)\n\" 2>&1"
	for _, tc := range []struct {
		fix    string
		oneOff bool
	}{
		{"export DB_URL=postgresql://app:app@localhost:5432/app && " + cmd, false},
		{"export DB_URL=/home/u/data/app.sqlite && " + cmd, true},
		{"export DB_URL=x APP_URL=http://localhost:8080/v2 && " + cmd, true},
	} {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", "s1", []step{
			run(cmd, 1, "Traceback (most recent call last):\n  File \"<string>\", line 1\nValueError: DB_URL environment variable is required but not set"),
			run(tc.fix, 0, ""),
		})
		cs := errorCandidates(t, dir)
		if len(cs) != 1 || !strings.Contains(cs[0].Solution, "set") {
			t.Fatalf("%s: %+v: want one lesson on the error naming the variable set", tc.fix, cs)
		}
		c := cs[0]
		if !c.Reminder(cfg) || c.Confidence >= cfg.MinConfidence {
			t.Errorf("%s: reminder %v, confidence %.2f: want said after the error, not proposed", tc.fix, c.Reminder(cfg), c.Confidence)
		}
		if said := strings.Contains(c.Solution, "that task's own call"); c.Signals.OneOff != tc.oneOff || said != tc.oneOff {
			t.Errorf("%s: oneOff %v, solution %q: want one task's %v, and said so", tc.fix, c.Signals.OneOff, c.Solution, tc.oneOff)
		}
	}
}

func TestEnvAdded(t *testing.T) {
	for _, tc := range []struct {
		failed, fix string
		want        []string
	}{
		{"cd x && go build ./... 2>&1", "PATH=$PATH:/usr/local/go/bin && cd x && go build ./...", []string{"PATH=$PATH:/usr/local/go/bin"}},
		{"pytest -q", "export DJANGO_SETTINGS=dev; pytest -q", []string{"DJANGO_SETTINGS=dev"}},
		{"FOO=1 pytest -q", "FOO=1 BAR=2 pytest -q", []string{"BAR=2"}},
		{"pytest -q", "FOO=1 pytest -q tests/a.py", nil}, // aimed elsewhere too
		{"pytest -q", "pytest -q", nil},
	} {
		if got := envAdded(tc.failed, tc.fix); !slices.Equal(got, tc.want) {
			t.Errorf("envAdded(%q, %q) = %q, want %q", tc.failed, tc.fix, got, tc.want)
		}
	}
}

// TestErrorLessonOfTheCommandThoughEditsCame: a program the shell does
// not have, or an option a command does not take, then the agent edits
// files and nothing of the family works after: the edits were the task
// going on, not a way past the error, so the error is a reminder. Before,
// any edit after the failure dropped it as the task's own. An error the
// edits and a rerun did get past stays the task's.
func TestErrorLessonOfTheCommandThoughEditsCame(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/src/schema.sql", "create table orders (id int);"), // a change first: not a failure that comes with the checkout
		run("PGPASSWORD=x psql -h localhost -c 'select count(*) from orders'", 127, "/bin/bash: line 1: psql: command not found"),
		write("/p/src/orders.py", "def count(): pass"),
		run("make lint --fix", 2, "make: unrecognized option '--fix'\nUsage: make [options] [target] ..."),
		write("/p/src/cart.py", "def total(): pass"),
		run("npm run seed", 1, "npm error Missing script: \"seed\""),
		write("/p/package.json", "{\"scripts\": {\"seed\": \"node seed.js\"}}"),
		run("npm run seed", 0, "seeded"),
	})
	cfg := lessons.DefaultConfig()
	cs := errorCandidates(t, dir)
	for _, fam := range []string{"psql", "make lint"} {
		i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Family == "`"+fam+"`" })
		if i < 0 || !cs[i].Reminder(cfg) {
			t.Errorf("%s: want a reminder on its error though edits came after it: %+v", fam, cs)
		}
	}
	if slices.ContainsFunc(cs, func(c Candidate) bool { return strings.HasPrefix(c.Family, "`npm") }) {
		t.Errorf("a lesson on the npm error the edit of package.json got past: %+v", cs)
	}
}

// TestErrorLessonOfAToolsOwnFailure: a file tool fails with an error that
// names what the call did not (the tool's own program is missing), and
// nothing got past it: the environment's failure, which comes back, so a
// reminder. A missing file the call named, nothing got past, stays the
// agent moving on.
func TestErrorLessonOfAToolsOwnFailure(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/src/lib.rs", "pub fn f() {}"), // a change first: not a failure that comes with the checkout
		call("Glob", map[string]any{"pattern": "src/**/*.rs"}, true, "ENOENT: no such file or directory, posix_spawn '/opt/agent/9.1/vendor/rg'"),
		call("Read", map[string]any{"file_path": "/p/docs/PLAN.md"}, true, "File does not exist."),
		run("ls src", 0, "main.rs"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || cs[0].Tool != "Glob" || !cs[0].Reminder(lessons.DefaultConfig()) {
		t.Fatalf("%+v: want one reminder, on the Glob tool's own failure", cs)
	}
	if !errorFires(t, cs[0], "ENOENT: no such file or directory, posix_spawn '/opt/agent/9.2/vendor/rg'") {
		t.Errorf("error trigger %q misses the same failure of another version", cs[0].Triggers.Errors)
	}
}

// TestErrorLessonFromALaterFailureOfTheKey: the first failure of a key
// gives no lesson (what got past it aimed elsewhere), a later one of the
// same key does: the key is taken by the lesson, not by the first try.
func TestErrorLessonFromALaterFailureOfTheKey(t *testing.T) {
	dir := t.TempDir()
	notFound := "gh: Not Found (HTTP 404)\n{\"message\":\"Not Found\",\"documentation_url\":\"https://docs.github.com/rest\"}"
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/notes.md", "reviews to read"), // a change first: not a failure that comes with the checkout
		run("gh api repos/acme/shop/pulls/7/reviews", 1, notFound),
		run("gh api repos/acme/shop/pulls/8/reviews", 0, "[]"),
		run("gh api repos/acme/shop/pulls/9/reviews", 1, notFound),
		run("git status", 0, "nothing to commit"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || cs[0].Fixed != "" || !strings.Contains(cs[0].Solution, "no retry of") {
		t.Fatalf("%+v: want one lesson, from the failure nothing got past", cs)
	}
}

// TestErrorLessonOfAToolThatTimedOut: a browser tool that did not answer
// in time, and nothing got past it: the next time it times out, that it
// did before is a reminder. Before, a tool's timeout was never watched.
func TestErrorLessonOfAToolThatTimedOut(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/web/index.html", "<main></main>"), // a change first: not a failure that comes with the checkout
		call("mcp__browser__screenshot", map[string]any{"tab": 3, "full_page": true}, true,
			"Timed out running CDP command \"Page.captureScreenshot\" for tab 3"),
		run("ls web", 0, "index.html"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || !cs[0].Reminder(lessons.DefaultConfig()) {
		t.Fatalf("%+v: want one reminder on the tool's timeout", cs)
	}
	if !errorFires(t, cs[0], "Timed out running CDP command \"Page.captureScreenshot\" for tab 7") {
		t.Errorf("error trigger %q misses the same timeout on another tab", cs[0].Triggers.Errors)
	}
}

// TestErrorLessonNotFromAskingForHelp: a usage error that points at
// --help, then the command's help: looking, not a way past the error.
func TestErrorLessonNotFromAskingForHelp(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/plan.md", "- split the worker"), // a change first: not a failure that comes with the checkout
		run("taskpad add -P high 'split the worker'", 2, "error: unexpected argument '-P' found\n\nUsage: taskpad add [OPTIONS] <TITLE>\n\nFor more information, try '--help'."),
		run("taskpad add --help", 0, "Usage: taskpad add [OPTIONS] <TITLE>\n  -p, --priority <P>"),
	})
	for _, c := range errorCandidates(t, dir) {
		if strings.Contains(c.Solution, "--help") {
			t.Errorf("solution %q: asking for help is no fix", c.Solution)
		}
	}
}

// TestFoldErrorReplacesAOneOffFix: a lesson on an error whose first fix
// was one task's (never said) takes a later fix, one task's or not; a
// fix that is not one task's stays the first. A one-off fix seen again
// is one no longer (merge): kept first, the fix of one session held the
// fix of every later session back.
func TestFoldErrorReplacesAOneOffFix(t *testing.T) {
	oneOff := Candidate{Kind: KindError, Fixed: "PATH=$PATH:/home/u/go/bin go build", Solution: "set PATH", Signals: Signals{OneOff: true}}
	later := Candidate{Kind: KindError, Fixed: "/usr/local/go/bin/go build", Solution: "run it by its full path"}
	c := oneOff
	c.foldError(later)
	if c.Solution != later.Solution || c.Signals.OneOff {
		t.Errorf("folded into a one-off fix: solution %q, one-off %v; want the later fix, not one-off", c.Solution, c.Signals.OneOff)
	}
	c = later
	c.foldError(oneOff)
	if c.Solution != later.Solution {
		t.Errorf("folded into a fix: solution %q; want the first fix kept", c.Solution)
	}
	fullPath := Candidate{Kind: KindError, Fixed: "/opt/go/bin/go build", Solution: "run /opt/go/bin/go", Signals: Signals{OneOff: true}}
	c = oneOff
	c.foldError(fullPath)
	if c.Solution != fullPath.Solution {
		t.Errorf("folded a one-off fix into a one-off fix: solution %q; want the later, so that seen again it counts", c.Solution)
	}
}

// TestErrorLessonOfAFlagTheProgramRefuses: a subcommand refuses a flag by
// name ("unknown flag: --no-pager") and the same call without it works.
// The retry's lesson comes before that subcommand with the flag only; a
// lesson on the error also says it after the same refusal from another
// subcommand of the program, as a reminder never proposed. Before, the
// retry's lesson was the only one, and the same flag passed to another
// subcommand failed again with nothing said. An error that names none of
// the command's flags keeps the retry's lesson alone.
func TestErrorLessonOfAFlagTheProgramRefuses(t *testing.T) {
	cfg := lessons.DefaultConfig()
	for _, tc := range []struct {
		name, out string
		want      bool
	}{
		{"the flag named", "Error: unknown flag: --no-pager\nUsage:\n  tool status [flags]\n", true},
		{"no flag named", "Error: not a checkout\n", false},
	} {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", "s1", []step{
			run("tool status --no-pager", 1, tc.out),
			run("tool status", 0, "clean"),
		})
		var got *Candidate
		for _, c := range errorCandidates(t, dir) {
			got = &c
		}
		if !tc.want {
			if got != nil {
				t.Errorf("%s: %q: want the retry's lesson alone", tc.name, got.Solution)
			}
			continue
		}
		if got == nil || !got.Reminder(cfg) || !errorFires(t, *got, "Error: unknown flag: --no-pager") {
			t.Fatalf("%s: %+v: want a reminder on the refusal", tc.name, got)
		}
		other := false
		for _, p := range got.Triggers.Commands {
			re, err := lessons.CompilePattern(p)
			if err != nil {
				t.Fatal(err)
			}
			ok, err := re.MatchString("tool search cyan --no-pager")
			if err != nil {
				t.Fatal(err)
			}
			other = other || ok
		}
		if !other {
			t.Errorf("%s: commands %q: want it said after another subcommand's refusal too", tc.name, got.Triggers.Commands)
		}
	}
}

// TestRetryThroughAWrapper: the shell does not find a program; many
// calls later, after an edit of the project's environment, the same
// command works run through another command. That command is the
// lesson, from one session, before the program's calls, without the
// task's paths. The program run another way (another subcommand through
// the wrapper) is no such fix.
func TestRetryThroughAWrapper(t *testing.T) {
	for _, tc := range []struct {
		worked string
		want   bool
	}{
		{"nix develop --command vp check src/app.ts", true},
		{"nix develop --command vp build", false},
	} {
		steps := []step{run("vp check src/app.ts", 127, "zsh:1: command not found: vp")}
		for _, c := range []string{"git status --short", "git diff --stat", "ls -la", "nix --version", "uname -m", "direnv status", "cat flake.nix"} {
			steps = append(steps, run(c, 0, "ok")) // more calls than a retry's window
		}
		steps = append(steps, write("/p/flake.nix", "{ packages = [ vp ]; }"), run(tc.worked, 0, "ok"))
		got := find(scanned(t, steps), KindRetry, "vp check")
		if said := got != nil && got.Reminder(lessons.DefaultConfig()); said != tc.want {
			t.Fatalf("after %q: retry lesson said after the error %v, want %v", tc.worked, got, tc.want)
		}
		if got != nil && (!strings.Contains(got.Summary, "run it through `nix develop --command`") || strings.Contains(got.Summary, "app.ts")) {
			t.Errorf("summary %q: want the wrapper, without the task's file", got.Summary)
		}
	}
}

// TestOneTaskFixSeenAgain: a lesson on an error whose fix reads as one
// task's (a variable set to a path of this machine) says so; when the
// same fix gets past the same error in a second session, it is the
// lesson's fix, and the text says it as one.
func TestOneTaskFixSeenAgain(t *testing.T) {
	cmd := "cd /p && uv run python -c \"import app.db\" 2>&1"
	fix := "export DB_URL=/home/u/data/app.sqlite && " + cmd
	steps := []step{
		run(cmd, 1, "ValueError: DB_URL environment variable is required but not set"),
		run(fix, 0, ""),
	}
	for _, sessions := range []int{1, 2} {
		dir := t.TempDir()
		for i := range sessions {
			writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i+1), steps)
		}
		cs := errorCandidates(t, dir)
		if len(cs) != 1 {
			t.Fatalf("%d sessions: %d lessons on the error, want 1", sessions, len(cs))
		}
		c := cs[0]
		oneTask := sessions == 1
		if c.Signals.OneOff != oneTask || strings.Contains(c.Solution, "that task's own call") != oneTask {
			t.Errorf("%d sessions: oneOff %v, solution %q: want one task's %v, and said so", sessions, c.Signals.OneOff, c.Solution, oneTask)
		}
	}
}

// TestErrorLessonOfAStepRunFirst: a commit with a pathspec failed on a
// file git did not know; the same commit with `git add` of that file in
// front of it, in one line, worked. The step the error named is what
// got past it, said after the same error. Before, the step in the same
// line was no change fixWorthy takes, and nothing was learned.
func TestErrorLessonOfAStepRunFirst(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("git commit -F /tmp/msg.txt src/Toolbar.tsx", 1, "error: pathspec 'src/Toolbar.tsx' did not match any file(s) known to git"),
		run("git add src/Toolbar.tsx && git commit -F /tmp/msg.txt src/Toolbar.tsx", 0, "[main 1a2b3c4] msg\n 1 file changed"),
		// a look around in front of the same command is no step
		run("make bundle", 2, "make: *** No rule to make target 'bundle'.  Stop."),
		run("ls bundle; make bundle", 0, "bundle built"),
	})
	cs := errorCandidates(t, dir)
	i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Family == "`git commit`" })
	if i < 0 {
		t.Fatalf("no lesson on the pathspec error: %+v", summaries(cs))
	}
	c := cs[i]
	if !strings.Contains(c.Solution, "`git add src/Toolbar.tsx`, run first") || !errorFires(t, c, "error: pathspec 'src/New.tsx' did not match any file(s) known to git") {
		t.Errorf("solution %q: want the git add step, run first, after any such pathspec error", c.Solution)
	}
	if c.Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Errorf("confidence %.2f: a fix no team saw as a candidate is a reminder only", c.Confidence)
	}
	for _, c := range cs {
		if strings.Contains(c.Solution, "`ls bundle`") {
			t.Errorf("a look around taken for the step that got past the error: %q", c.Solution)
		}
	}
}

// TestErrorLessonWithoutWhatTheErrorNamed: git add refused a path the
// .gitignore covers, and the same add without it worked: a lesson after
// the same refusal says to leave out what the error names. A test run
// or a lint that passed once the failing file was left out is no such
// lesson: that hides the failure. A file of another kind than the rest
// (README.md given to gofmt with .go files) is one, though the error
// names it at a line: it was the wrong input.
func TestErrorLessonWithoutWhatTheErrorNamed(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("git add main.tex src/run.py results/tier2/run.log", 1, "The following paths are ignored by one of your .gitignore files:\nresults\nhint: Use -f if you really want to add them."),
		run("git add main.tex src/run.py", 0, ""),
		run("pytest tests/test_a.py tests/test_b.py", 1, "FAILED tests/test_b.py::test_total - assert 3 == 4\n1 failed, 4 passed in 0.2s"),
		run("pytest tests/test_a.py", 0, "4 passed in 0.1s"),
		run("eslint src/a.ts src/b.ts", 1, "src/b.ts:3:7  error  'x' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)"),
		run("eslint src/a.ts", 0, ""),
		run("gofmt -w cmd/main.go internal/sync.go README.md", 2, "README.md:1:1: illegal character U+0023 '#'"),
		run("gofmt -w cmd/main.go internal/sync.go", 0, ""),
	})
	cs := errorCandidates(t, dir)
	if i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Family == "`gofmt`" }); i < 0 || !strings.Contains(cs[i].Solution, "without `README.md`") {
		t.Errorf("want a lesson on gofmt's error saying it worked without the file of another kind; lessons %q", summaries(cs))
	}
	i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Family == "`git add`" })
	if i < 0 {
		t.Fatalf("no lesson on the ignored paths: %+v", summaries(cs))
	}
	if c := cs[i]; !strings.Contains(c.Solution, "without `results/tier2/run.log`, which the error named") {
		t.Errorf("solution %q: want the add without the ignored path", c.Solution)
	}
	for _, c := range cs {
		if strings.Contains(c.Solution, "without `tests/test_b.py`") || strings.Contains(c.Solution, "without `src/b.ts`") {
			t.Errorf("leaving out the failing file taught as a fix: %q", c.Solution)
		}
	}
}

// TestQuotedListIsBounded: a fix that left out many operands names the
// first few, and how many more, not all of them.
func TestQuotedListIsBounded(t *testing.T) {
	words := []string{"results/a.log", "results/b.log", "results/c.log", "results/d.log", "results/e.log"}
	if got, want := quotedList(words), "`results/a.log`, `results/b.log`, `results/c.log` and 2 more"; got != want {
		t.Errorf("quotedList = %q, want %q", got, want)
	}
	if got := quotedList(words[:1]); got != "`results/a.log`" {
		t.Errorf("quotedList of one = %q", got)
	}
}

// TestErrorLessonOfANameFoundElsewhere: a program the shell did not find,
// run from the project's virtualenv, and a file read under a folder
// doubled, read from the right one: the same name put right, which the
// error named, is said after the same error. A commit of another file
// after a pathspec error is another task's value, and no such lesson.
func TestErrorLessonOfANameFoundElsewhere(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run(`python -c "import app; print(app.VERSION)"`, 127, "(eval):1: command not found: python"),
		run(`.venv/bin/python -c "import app; print(app.VERSION)"`, 0, "1.4.2"),
		run("rg -n handler go/cmd/api/main.go", 2, "rg: go/cmd/api/main.go: No such file or directory (os error 2)"),
		run("rg -n handler cmd/api/main.go", 0, "12: handler := api.New()"),
		run("git commit -m wip gas/appsscript.json", 1, "error: pathspec 'gas/appsscript.json' did not match any file(s) known to git"),
		run("git commit -m wip gas/package-lock.json", 0, "[main 1a2b3c4] wip"),
	})
	cs := errorCandidates(t, dir)
	for fam, want := range map[string]string{
		"`python -c`": "with `.venv/bin/python` for `python`",
		"`rg`":        "with `cmd/api/main.go` for `go/cmd/api/main.go`",
	} {
		i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Family == fam })
		if i < 0 || !strings.Contains(cs[i].Solution, want) {
			t.Errorf("%s: want a lesson saying %q; lessons %q", fam, want, summaries(cs))
		}
	}
	for _, c := range cs {
		if strings.Contains(c.Solution, "package-lock.json") {
			t.Errorf("another file committed taught as the fix: %q", c.Solution)
		}
	}
}

// TestErrorLessonOfOptionsAdded: a call refused for its arguments, then
// the same program and subcommand with an option added (and an operand
// left out) worked: what got past the error is said after it, as that
// task's call. A lint whose findings sit at lines of a file, got past by
// adding --fix, another target (an operand, not an option), and an
// option added when the error named only what the call kept (a module
// its test file imports), and an option added to another command of the
// line than the one the failure is put down to, teach no way of calling.
func TestErrorLessonOfOptionsAdded(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("gh pr diff 10854 -- src/shorthands.rs", 1, "accepts at most 1 arg(s), received 3"),
		run("git remote -v", 0, "origin git@github.com:o/r.git"),
		run("gh pr diff 10854 --patch", 0, "diff --git a/src/shorthands.rs b/src/shorthands.rs"),
		run("textlint docs/guide.md", 1, "/p/docs/guide.md\n  3:10  error  Line is too long  max-len\n\n✖ 1 problem (1 error, 0 warnings)"),
		run("textlint --fix docs/guide.md", 0, ""),
		run("kubectl logs api-7f9c", 1, "Error from server (NotFound): pods \"api-7f9c\" not found"),
		run("kubectl logs -n prod api-7f9c api-sidecar", 0, "started"),
		run("pytest tests/test_api.py -x", 2, "ERROR tests/test_api.py - ModuleNotFoundError: No module named 'httpx'"),
		run("pytest tests/test_api.py -x -p no:cacheprovider", 0, "4 passed"),
		run("go test ./color -run TestProbe\nrm color/probe_test.go", 1, "Command timed out after 30s"),
		run("go test ./color -run TestProbe -timeout 20s\nrm color/probe_test.go", 0, "ok"),
	})
	cs := errorCandidates(t, dir)
	i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Family == "`gh pr`" })
	if i < 0 || !strings.Contains(cs[i].Solution, "`gh pr diff 10854 --patch` worked, with `--patch` added") {
		t.Fatalf("want a lesson on gh pr's error saying the call with --patch; lessons %q", summaries(cs))
	}
	if c := cs[i]; c.Confidence >= lessons.DefaultConfig().MinConfidence || !c.Reminder(lessons.DefaultConfig()) {
		t.Errorf("confidence %.2f, reminder %v: want said after the error, not proposed", c.Confidence, c.Reminder(lessons.DefaultConfig()))
	}
	for _, c := range cs {
		if strings.Contains(c.Solution, "--fix") || strings.Contains(c.Solution, "api-sidecar") || strings.Contains(c.Solution, "cacheprovider") ||
			strings.Contains(c.Solution, "-timeout") {
			t.Errorf("a fix for the findings, or another target, taught as a way: %q", c.Solution)
		}
	}
}

// TestErrorLessonOfAnOptionMoved: a program that reads options only
// before its operands took --no-cache, written after one, for a target;
// the same words with the option first worked. The lesson after the same
// error says to put it first. Words only reordered where the error names
// none of them teach nothing.
func TestErrorLessonOfAnOptionMoved(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("go run ./cmd/repiq pypi:pydantic --no-cache", 1, "invalid target \"--no-cache\": missing \":\""),
		run("go run ./cmd/repiq --no-cache pypi:pydantic", 0, "pydantic 2.9"),
		run("tar xf dist.tar -C out --strip 1", 2, "tar: dist.tar: Cannot open: No such file or directory"),
		run("tar xf dist.tar --strip 1 -C out", 0, ""),
	})
	cs := errorCandidates(t, dir)
	i := slices.IndexFunc(cs, func(c Candidate) bool { return strings.HasPrefix(c.Family, "`go run") })
	if i < 0 || !strings.Contains(cs[i].Solution, "with `--no-cache` put before its operands") {
		t.Fatalf("want a lesson saying to put --no-cache first; lessons %q", summaries(cs))
	}
	for _, c := range cs {
		if strings.Contains(c.Solution, "put before") && !strings.HasPrefix(c.Family, "`go run") {
			t.Errorf("a reorder the error does not name taught: %q", c.Solution)
		}
	}
}
