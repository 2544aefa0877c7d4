package scanner

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons"
)

// errorCandidates scans dir and returns its lessons on an error.
func errorCandidates(t *testing.T, dir string) []Candidate {
	t.Helper()
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	return ofKind(candidates(t, state), KindError)
}

// errorFires reports whether a lesson's error triggers find text.
func errorFires(t *testing.T, c Candidate, text string) bool {
	t.Helper()
	for _, p := range c.Triggers.Errors {
		re, err := lessons.CompilePattern(p)
		if err != nil {
			t.Fatalf("error trigger %q: %v", p, err)
		}
		if ok, _ := re.MatchString(text); ok {
			return true
		}
	}
	return false
}

// TestErrorLessonOfAToolRetry: a subagent call naming an agent that does
// not exist, then the call with the right agent: a lesson on that error,
// for that tool, from one session (it comes only after the error), that
// says which argument changed and fires on the same error for another
// name, not on another error. The error lists the agent that worked, so
// the lesson says nothing the error does not: it comes as a reminder
// after the error, and is not proposed to the team.
func TestErrorLessonOfAToolRetry(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		call("Task", map[string]any{"subagent_type": "db-auditor", "description": "Audit the schema", "prompt": "Look at the schema"}, true,
			"Agent type 'db-auditor' not found. Available agents: general-purpose, Explore, team:db-auditor"),
		call("Task", map[string]any{"subagent_type": "team:db-auditor", "description": "Audit the schema again", "prompt": "Look at the schema"}, false,
			"The schema has three tables."),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if cfg := lessons.DefaultConfig(); c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
		t.Errorf("confidence %.2f: a fix the error already names is a reminder after it, not proposed", c.Confidence)
	}
	if len(c.Triggers.Tools) != 1 || c.Triggers.Tools[0] != "Task" || len(c.Triggers.Commands) != 0 {
		t.Errorf("triggers %+v: want the Task tool and the error", c.Triggers)
	}
	if !strings.Contains(c.Solution, "`subagent_type` `team:db-auditor` instead of `db-auditor`") || strings.Contains(c.Solution, "description") {
		t.Errorf("solution %q: want the argument that changed, not the free text", c.Solution)
	}
	if !errorFires(t, c, "Agent type 'log-reader' not found. Available agents: general-purpose, Plan") {
		t.Errorf("error trigger %q misses the same error for another agent", c.Triggers.Errors)
	}
	if errorFires(t, c, "Agent 'log-reader' timed out after 600s") {
		t.Errorf("error trigger %q fires on another error", c.Triggers.Errors)
	}
	l := ToLesson(c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("the lesson does not validate: %v", ps)
	}
}

// TestErrorLessonNothingGotPast: a failure no later call got past, with
// nothing edited after it, is a reminder from its first session, and
// once it came back in a second session says so; it is never proposed
// (it stays below minConfidence): it names no fix.
func TestErrorLessonNothingGotPast(t *testing.T) {
	dir := t.TempDir()
	fail := "Error: Unable to locate credentials. You can configure credentials by running \"aws configure\"."
	session := func(id string) {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/infra/bucket.tf", "resource {}"),
			run("aws s3 ls s3://shop-assets", 255, fail),
		})
	}
	session("s1")
	cs := errorCandidates(t, dir)
	cfg := lessons.DefaultConfig()
	if len(cs) != 1 || cs[0].Confidence >= cfg.MinConfidence || !cs[0].Reminder(cfg) {
		t.Fatalf("after one session: %+v; want one lesson on the error, a reminder below minConfidence", cs)
	}
	session("s2")
	cs = errorCandidates(t, dir)
	if len(cs) != 1 || len(cs[0].Sessions) != 2 || cs[0].Confidence >= cfg.MinConfidence || !cs[0].Reminder(cfg) {
		t.Fatalf("after two sessions: %+v; want one lesson on the error seen in both, a reminder below minConfidence", cs)
	}
	c := cs[0]
	if !strings.Contains(c.Solution, "2 sessions") || !strings.Contains(c.Summary, "`aws s3` failed with") {
		t.Errorf("summary %q, solution %q: want the command, the error and the two sessions", c.Summary, c.Solution)
	}
	// the error names no subcommand: any aws call meets it (the
	// credentials are the program's), and no other program's call does
	if len(c.Triggers.Commands) != 1 || !commandFires(c.Triggers, "aws s3 cp a.txt s3://x") || !commandFires(c.Triggers, "aws sts get-caller-identity") ||
		commandFires(c.Triggers, "gcloud auth list") {
		t.Errorf("command trigger %q: want aws calls only", c.Triggers.Commands)
	}
}

// TestErrorLessonNotForTheTasksEdits: a build error of the agent's own
// code, fixed by editing it, is the task, not a lesson on the error.
func TestErrorLessonNotForTheTasksEdits(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("go build ./...", 1, "# shop/cart\ncart/tax.go:12:3: undefined: roundCents"),
		write("/p/cart/tax.go", "package cart"),
		run("go build ./...", 0, ""),
	})
	if cs := errorCandidates(t, dir); len(cs) != 0 {
		t.Errorf("lessons on the error of the task's own code: %+v", cs)
	}
}

// TestErrorLessonOneOffFix: a retry whose only change is a path of this
// task stays below minConfidence until it is seen in a second session.
func TestErrorLessonOneOffFix(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		call("Grep", map[string]any{"pattern": "func Total", "path": "/p/.worktrees/old-branch/cart"}, true,
			"Path does not exist: /p/.worktrees/old-branch/cart"),
		call("Grep", map[string]any{"pattern": "func Total", "path": "/p/cart"}, false, "cart/total.go"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || !cs[0].Signals.OneOff || cs[0].Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Fatalf("%+v: want one lesson on the error, one-off, below minConfidence", cs)
	}
}

// TestPreconditionStepOfTheSameFamily: the same command run again after
// a setup step of its own family (manage.py migrate after manage.py test
// failed) is a precondition fix: the step is what to do first, not the
// call that got past the failure. Before, the step settled the failure
// and nothing was learned.
func TestPreconditionStepOfTheSameFamily(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("python manage.py test shop", 1, "django.db.utils.OperationalError: no such table: shop_order"),
		run("ls shop", 0, "models.py"),
		run("python manage.py migrate", 0, "Applying shop.0001_initial... OK"),
		run("python manage.py test shop 2>&1", 0, "OK"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	var pre []Candidate
	for _, c := range candidates(t, state) {
		switch c.Kind {
		case KindPrecondition:
			pre = append(pre, c)
		case KindError:
			t.Errorf("a lesson on the error beside the precondition fix of the same call: %s", c.Summary)
		}
	}
	if len(pre) != 1 {
		t.Fatalf("%d precondition fixes, want 1", len(pre))
	}
	c := pre[0]
	if !strings.Contains(c.Summary, "python manage.py migrate") || !c.Reminder(lessons.DefaultConfig()) {
		t.Errorf("summary %q, confidence %.2f: want the migrate step, said after the error", c.Summary, c.Confidence)
	}
	if !commandFires(c.Triggers, "python manage.py test billing") {
		t.Errorf("trigger %q does not fire before the next test run", c.Triggers.Commands)
	}
}

// TestErrorLessonOfAHintedStep: a command the failure's own output told
// the agent to run (go mod tidy), then the same call again: a lesson on
// the error naming the step. It is no precondition fix before every go
// test: the state it fixes drifts now and then, and such a lesson would
// speak before every call that goes fine. The error already says the
// step, so the lesson is a reminder after it, echoing the error, and so
// it is when the step adds a flag to the command the error names; a step
// the error does not name is a reminder too (a lesson on the work's own
// error), but no echo.
func TestErrorLessonOfAHintedStep(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("go test ./...", 1, "go: updates to go.mod needed; to update it:\n\tgo mod tidy"),
		run("git status --short", 0, " M go.mod"),
		run("go mod tidy", 0, ""),
		run("go test ./... 2>&1", 0, "ok  \tshop/cart\t0.01s"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || !strings.Contains(cs[0].Solution, "after you run `go mod tidy`") || strings.Contains(cs[0].Solution, "git status") {
		t.Fatalf("%+v: want one lesson on the error, naming go mod tidy and not the look around", cs)
	}
	cfg := lessons.DefaultConfig()
	if len(cs[0].Triggers.Errors) != 1 || cs[0].Confidence >= cfg.MinConfidence || !cs[0].Reminder(cfg) {
		t.Errorf("triggers %+v, confidence %.2f: want the error, as a reminder below minConfidence", cs[0].Triggers, cs[0].Confidence)
	}

	for first, echo := range map[string]bool{"go mod tidy -e": true, "go mod download": false} {
		dir = t.TempDir()
		writeClaude(t, dir, "/p", "s1", []step{
			run("go test ./...", 1, "go: updates to go.mod needed; to update it:\n\tgo mod tidy"),
			run(first, 0, ""),
			run("go test ./... 2>&1", 0, "ok  \tshop/cart\t0.01s"),
		})
		cs = errorCandidates(t, dir)
		if len(cs) != 1 || cs[0].Signals.Reminds != echo || !atFailure(cs[0]) {
			t.Errorf("%s: %+v: want a reminder at the failure, the error saying it %v", first, summaries(cs), echo)
		}
	}
}

// TestErrorLessonOfAStepBeforeTheSameCall: the same command run again
// after a step the error named worked, a step no precondition fix counts
// (it removes a file rather than set something up): the lesson on its
// error names the step, not the look around.
func TestErrorLessonOfAStepBeforeTheSameCall(t *testing.T) {
	dir := t.TempDir()
	lock := "fatal: Unable to create '/p/.git/index.lock': File exists.\nAnother git process seems to be running in this repository."
	writeClaude(t, dir, "/p", "s1", []step{
		run("git pull", 128, lock),
		run("ps aux", 0, "nothing"),
		run("rm -f .git/index.lock", 0, ""),
		run("git pull 2>&1", 0, "Already up to date."),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if !strings.Contains(c.Solution, "after you run `rm -f .git/index.lock`") || strings.Contains(c.Solution, "ps aux") {
		t.Errorf("solution %q: want the step the error named, not the look around", c.Solution)
	}
	if !atFailure(c) {
		t.Errorf("confidence %.2f: want a reminder at the failure", c.Confidence)
	}
	if !errorFires(t, c, "Exit code 128\nfatal: Unable to create '/home/u/app/.git/index.lock': File exists.") {
		t.Errorf("error trigger %q misses the error in another checkout", c.Triggers.Errors)
	}
}

// TestErrorLessonNotForAnotherCause: a tool's error that names something
// the call did not hold (its own binary), and a Read of another file
// after a file was not found, are not fixes: no lesson names them. The
// tool's error is the environment's, one nothing got past.
func TestErrorLessonNotForAnotherCause(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		call("Grep", map[string]any{"pattern": "func Total", "glob": "*.go"}, true,
			"ENOENT: no such file or directory, posix_spawn '/opt/tools/bin/rg'"),
		call("Grep", map[string]any{"pattern": "Total", "type": "go"}, false, "cart/total.go"),
		call("Read", map[string]any{"file_path": "/p/docs/SPEC.md"}, true, "File does not exist."),
		call("Read", map[string]any{"file_path": "/p/README.md"}, false, "# shop"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || cs[0].Tool != "Grep" || cs[0].Fixed != "" || cs[0].Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Fatalf("%+v: want one lesson nothing got past, on the Grep error, below minConfidence, naming no fix", cs)
	}
	if strings.Contains(cs[0].Solution, "type") || !strings.Contains(cs[0].Solution, "no retry of Grep got past it") {
		t.Errorf("solution %q: want that nothing got past it, not the retry's arguments", cs[0].Solution)
	}
}

// TestErrorLessonOfAnotherDirectory: the same command run from another
// directory worked: the lesson on the error says where it ran.
func TestErrorLessonOfAnotherDirectory(t *testing.T) {
	dir := t.TempDir()
	fail := "pattern ./...: directory prefix . does not contain main module or its selected dependencies"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("go build ./... && go vet ./...", 1, fail),
			run("cd /p/src && go build ./... && go vet ./...", 0, ""),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || !strings.Contains(cs[0].Solution, "in another directory: `cd /p/src && go build") {
		t.Fatalf("%+v: want one lesson on the error, with the directory it worked from", cs)
	}
	if !atFailure(cs[0]) {
		t.Errorf("confidence %.2f after two sessions: want a reminder at the failure", cs[0].Confidence)
	}
}

func TestCallArgs(t *testing.T) {
	long := strings.Repeat("x", 200)
	got := callArgs([]byte(`{"file_path":"/a.go","offset":120,"limit":40,"subagent_type":"shop:rev","prompt":"` + long +
		`","esc":"a\u001b[31mb","paths":["a","b"],"bad\nkey":"v","` + strings.Repeat("k", 100) + `":"v"}`))
	lines := strings.Split(got, "\n")
	if len(lines) != 6 || lines[0] != "offset=120" || lines[1] != "limit=40" || lines[2] != "subagent_type=shop:rev" {
		t.Fatalf("callArgs = %q: want the settings, then digests of the text, nothing of the path or the bad keys", got)
	}
	for _, l := range lines[3:] {
		k, v, _ := strings.Cut(l, "=")
		if !strings.HasPrefix(v, textMark) || strings.ContainsFunc(v[1:], func(r rune) bool { return r < ' ' }) || len(v) > 10 {
			t.Errorf("argument %s = %q: want a short digest", k, v)
		}
	}
	if n := len(callArgs([]byte(`{` + strings.Repeat(`"a":"b",`, 200) + `"z":1}`))); n > maxArgs {
		t.Errorf("callArgs of 200 arguments: %d bytes, want at most %d", n, maxArgs)
	}
}

func TestRanElsewhere(t *testing.T) {
	for _, tt := range []struct {
		failed, fixed string
		want          bool
	}{
		{"go build ./...", "cd src && go build ./...", true},
		{"cd cmd/app && go test -run TestX 2>&1", "go test -run TestX", true},
		{"cd a && make", "cd b && make", true},
		{"cd a && make", "cd a && make test", false},
		{"go build ./...", "go build ./cmd/...", false},
		{"cd src", "ls", false},
	} {
		if got := ranElsewhere(tt.failed, tt.fixed); got != tt.want {
			t.Errorf("ranElsewhere(%q, %q) = %v, want %v", tt.failed, tt.fixed, got, tt.want)
		}
	}
}

// TestErrorLessonTakesTheFirstFix: seen first with nothing that got past
// it, then fixed in a later session, the lesson on the error says the
// fix, and counts both sessions.
func TestErrorLessonTakesTheFirstFix(t *testing.T) {
	dir := t.TempDir()
	fail := "go: updates to go.mod needed; to update it:\n\tgo mod tidy"
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/cart/total.go", "package cart"),
		run("go test ./...", 1, fail),
	})
	writeClaude(t, dir, "/p", "s2", []step{
		write("/p/cart/tax.go", "package cart"),
		run("go test ./...", 1, fail),
		run("go mod tidy", 0, ""),
		run("go test ./...", 0, "ok"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || len(cs[0].Sessions) != 2 || !strings.Contains(cs[0].Solution, "after you run `go mod tidy`") {
		t.Fatalf("%+v: want one lesson on the error, from both sessions, with the fix of the second", cs)
	}
}

// TestErrorLessonOfAShellSetting: a command the sandbox stopped, then the
// same command out of the sandbox: the setting is the fix, taught from
// one session; the same command again with only another description is
// a rerun, not a fix.
func TestErrorLessonOfAShellSetting(t *testing.T) {
	fail := "node:events:486\n      throw er; // Unhandled 'error' event\n      ^\n\nError: listen EPERM: operation not permitted 127.0.0.1\n    at Server.setupListenHandle (node:net:1800:21)"
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		call("Bash", map[string]any{"command": "npm test", "description": "Run the tests"}, true, "Exit code 1\n"+fail),
		call("Bash", map[string]any{"command": "npm test", "description": "Run the tests outside the sandbox", "dangerouslyDisableSandbox": true}, false, "12 passed"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if !strings.HasPrefix(c.Summary, "The environment refused the operation") {
		t.Errorf("summary %q: want it to say the environment refused, not the command", c.Summary)
	}
	if !strings.Contains(c.Solution, "`dangerouslyDisableSandbox` set to `true`") || strings.Contains(c.Solution, "unchanged") {
		t.Errorf("solution %q: want the setting that got past the sandbox", c.Solution)
	}
	if !c.Reminder(lessons.DefaultConfig()) {
		t.Errorf("confidence %.2f: a setting that got past the error is said after it from its first session", c.Confidence)
	}
	if !errorFires(t, c, "Error: listen EPERM: operation not permitted 127.0.0.1") {
		t.Errorf("error trigger %q misses the error", c.Triggers.Errors)
	}

	// the same, with the program run by its path under a variable
	dir = t.TempDir()
	cmd := "CI=1 ./node_modules/.bin/vitest run test/a.test.ts"
	writeClaude(t, dir, "/p", "s1", []step{
		call("Bash", map[string]any{"command": cmd}, true, "Exit code 1\n"+fail),
		call("Bash", map[string]any{"command": cmd, "sandbox_permissions": "require_escalated"}, false, "12 passed"),
	})
	// the sandbox's refusal holds for any command: no command condition
	if cs := errorCandidates(t, dir); len(cs) != 1 || len(cs[0].Triggers.Commands) != 0 ||
		!errorFires(t, cs[0], "Error: listen EPERM: operation not permitted 127.0.0.1") {
		t.Errorf("candidates %+v: want one lesson on the refusal, for vitest however it is run and any other command", cs)
	}

	dir = t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		call("Bash", map[string]any{"command": "npm test", "description": "Run the tests"}, true, "Exit code 1\n"+fail),
		call("Bash", map[string]any{"command": "npm test", "description": "Run the tests again", "run_in_background": false}, false, "12 passed"),
	})
	for _, c := range errorCandidates(t, dir) {
		if strings.Contains(c.Solution, "description") || strings.Contains(c.Solution, "run_in_background") {
			t.Errorf("solution %q: a description or a setting left off is no fix", c.Solution)
		}
	}
}

// TestShellSettings: a shell call keeps the settings it switches on, as
// Claude Code and Codex write them, and nothing that changes from call
// to call.
func TestShellSettings(t *testing.T) {
	for _, tc := range []struct{ name, input, want string }{
		{"Bash", `{"command":"npm test","description":"Run the tests","timeout":600000,"dangerouslyDisableSandbox":true}`, "dangerouslyDisableSandbox=true"},
		{"exec_command", `"{\"cmd\":\"go test ./...\",\"workdir\":\"/src/app\",\"yield_time_ms\":1000,\"sandbox_permissions\":\"require_escalated\",\"justification\":\"Tests listen on a local port\"}"`, "sandbox_permissions=require_escalated"},
		{"Bash", `{"command":"npm test","run_in_background":false}`, ""},
	} {
		if got := newCall(tc.name, []byte(tc.input)).Args; got != tc.want {
			t.Errorf("%s %s: settings %q, want %q", tc.name, tc.input, got, tc.want)
		}
	}
}

// TestErrorLessonNothingGotPastSaysWhatItKnows: a test run that fails
// on files that are not the project's, in two sessions, and that nothing
// got past: the lesson quotes the agent's reading of the failure (the
// sentence right after it that names what the output named, not its plan
// nor a question), names another try that failed too, and names a
// narrower run of the same program that worked, not the next command of
// another purpose (the lint after it).
func TestErrorLessonNothingGotPastSaysWhatItKnows(t *testing.T) {
	dir := t.TempDir()
	fail := "FAIL vendor/clones/ui/button.test.tsx\nerror: Cannot find module '@testing-library/react' from 'vendor/clones/ui/button.test.tsx'\n2 fail"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/src/cart.ts", "export const total = 1"),
			run("npm run test", 1, fail),
			say("Should I ignore these? Let me look at src/cart.ts first.\nThe failures all come from vendor/clones/ (an external checkout the runner picks up), not from the project's tests."),
			run("npm run test -- --bail", 1, fail),
			run("npm run lint", 0, "0 problems"),
			run("npm test src/", 0, "12 passed"),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %v", len(cs), summaries(cs))
	}
	c := cs[0]
	for _, want := range []string{
		"The failures all come from vendor/clones/", // the agent's reading
		"`npm run test -- --bail` failed too",       // what did not get past it
		"`npm test src/`",                           // the same program, asked for the tests another way
	} {
		if !strings.Contains(c.Solution, want) {
			t.Errorf("solution %q: want %q", c.Solution, want)
		}
	}
	for _, not := range []string{"Should I", "Let me", "npm run lint"} {
		if strings.Contains(c.Solution, not) {
			t.Errorf("solution %q quotes %q: a question, a plan or another purpose's command", c.Solution, not)
		}
	}
	if !atFailure(c) {
		t.Errorf("confidence %.2f after two sessions: want a reminder at the failure", c.Confidence)
	}
}

// TestErrorLessonOfAProgramByItsFullPath: the shell does not find a
// program, and the same build run by the program's full path works, in
// another directory too: the lesson names the full path, from its first
// session (a fix that worked), and says so again in a second session.
func TestErrorLessonOfAProgramByItsFullPath(t *testing.T) {
	dir := t.TempDir()
	missing := "/bin/bash: line 1: go: command not found"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/cmd/server/main.go", "package main"),
			run("go build ./cmd/server/ 2>&1", 127, missing),
			run("which go || ls /usr/local/go/bin/go", 0, "/usr/local/go/bin/go"),
			run("cd /p/svc && /usr/local/go/bin/go build ./cmd/server/ 2>&1", 0, ""),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %v", len(cs), summaries(cs))
	}
	c := cs[0]
	if !strings.Contains(c.Solution, "`/usr/local/go/bin/go`") || !strings.Contains(c.Solution, "PATH") {
		t.Errorf("solution %q: want the program's full path", c.Solution)
	}
	if !atFailure(c) || !c.Signals.FixConfirmed {
		t.Errorf("confidence %.2f, signals %+v: a fix that worked, seen in two sessions, said at the failure", c.Confidence, c.Signals)
	}
}

// TestErrorLessonKeepsTheOldestFix: two sessions met one error and got
// past it differently. The later one's file is bigger, so it is read
// first; the lesson still keeps the fix of the session that ran first,
// with one worker or many: the merge follows the sessions' order, not the
// scheduler's. The order is the logs' own timestamps, else their mtimes:
// a copy of the logs (a checkout, an archive unpacked) gives every file
// one mtime, and the files' names say nothing.
func TestErrorLessonKeepsTheOldestFix(t *testing.T) {
	fail := "Error: listen EPERM: operation not permitted 127.0.0.1"
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, first, later string
		// laterLogged moves the later session's timestamps a day on;
		// else the files' mtimes alone say which ran first
		laterLogged bool
	}{
		{"by mtime", "old", "new", false},
		{"a copy, by the logs' times", "b-first", "a-later", true},
	} {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", tt.first, []step{
			call("Bash", map[string]any{"command": "npm test"}, true, "Exit code 1\n"+fail),
			call("Bash", map[string]any{"command": "npm test", "dangerouslyDisableSandbox": true}, false, "12 passed"),
		})
		later := []step{
			call("Bash", map[string]any{"command": "npm test"}, true, "Exit code 1\n"+fail),
			call("Bash", map[string]any{"command": "npm test", "run_in_background": true}, false, "started"),
		}
		for i := range 40 {
			later = append(later, run(fmt.Sprintf("ls src/part%d", i), 0, strings.Repeat("file.ts\n", 20)))
		}
		writeClaude(t, dir, "/p", tt.later, later)
		laterLog := filepath.Join(dir, tt.later+".jsonl")
		laterAt := day.Add(24 * time.Hour)
		if tt.laterLogged {
			b, err := os.ReadFile(laterLog)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(laterLog, bytes.ReplaceAll(b, []byte(`"2026-01-01T`), []byte(`"2026-01-02T`)), 0o644); err != nil {
				t.Fatal(err)
			}
			laterAt = day
		}
		if err := os.Chtimes(filepath.Join(dir, tt.first+".jsonl"), day, day); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(laterLog, laterAt, laterAt); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 4} {
			state := t.TempDir()
			scan(t, state, Options{Paths: []string{dir}, Workers: workers})
			var sols []string
			for _, c := range candidates(t, state) {
				if c.Kind == KindError {
					sols = append(sols, c.Solution)
				}
			}
			if len(sols) != 1 || !strings.Contains(sols[0], "dangerouslyDisableSandbox") {
				t.Errorf("%s, %d workers: lessons on the error %q; want one, with the fix of the session that ran first", tt.name, workers, sols)
			}
		}
	}
}

// TestErrorLessonSummaryWithoutColours: a runner that prints its error in
// colour gives a lesson whose summary reads without the escape codes,
// while its trigger still matches the output as the hook sees it.
func TestErrorLessonSummaryWithoutColours(t *testing.T) {
	fail := "\x1b[31mError: listen EPERM: operation not permitted 127.0.0.1\x1b[0m"
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		call("Bash", map[string]any{"command": "npm test"}, true, "Exit code 1\n"+fail),
		call("Bash", map[string]any{"command": "npm test", "dangerouslyDisableSandbox": true}, false, "12 passed"),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	if strings.Contains(cs[0].Summary, "\x1b") || strings.Contains(cs[0].Summary, "[31m") || !strings.Contains(cs[0].Summary, "listen EPERM") {
		t.Errorf("summary %q: want the error's words without colour codes", cs[0].Summary)
	}
	if !errorFires(t, cs[0], fail) {
		t.Errorf("error trigger %q misses the coloured output", cs[0].Triggers.Errors)
	}
}

// TestErrorLessonNotFromAFilteredRetry: a retry that changed the command
// and piped the failed program's output into a filter "worked" by the
// filter's exit status: it says nothing of whether the program got past
// the error, so it is no fix to teach.
func TestErrorLessonNotFromAFilteredRetry(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/src/db.ts", "x"),
		run("bun run test 2>&1", 1, "$ turbo run test\n@shop/db:test: $ bun test src\n@shop/db:test: \n@shop/db:test: # Unhandled error between tests\n"+
			"@shop/db:test: error: Missing SHOP_DB_URL or SHOP_DB_HOST\n@shop/db:test:  0 pass\n@shop/db:test:  1 fail\n"+
			"@shop/db:test: ERROR: command finished with error: command (/w/p/packages/db) /usr/bin/bun run test exited (1)\n\n"+
			" Tasks:    3 successful, 4 total\nFailed:    @shop/db#test\nTip: run one package's tasks with --filter=<package>"),
		run("git stash && bun run test --filter=@shop/db 2>&1 | tail -20 && git stash pop", 0, "Saved working directory and index state WIP on main\n"+
			"@shop/db:test: (pass) db > parses config\n@shop/db:test:  3 pass\nDropped refs/stash@{0} (12099a34fc)"),
	})
	for _, c := range errorCandidates(t, dir) {
		if c.Fixed != "" || c.Confidence >= lessons.DefaultConfig().MinConfidence {
			t.Errorf("lesson %q (fix %q, confidence %.2f): want no fix from a filtered run, below minConfidence", c.Summary, c.Fixed, c.Confidence)
		}
	}
}

func TestPipedOff(t *testing.T) {
	fam := lessons.Family{Exe: "bun", Sub: "run test"}
	for _, tt := range []struct {
		cmd  string
		want bool
	}{
		{"git stash && bun run test --filter=x 2>&1 | tail -20 && git stash pop", true},
		{"bun run test 2>&1 | grep -E 'fail|pass'", true},
		{"bun run test 2>&1", false},
		{"bun run build 2>&1 | tail -5 && bun run test", false},
		{"bun run test > out.txt; cat out.txt | head", false},
	} {
		if got := pipedOff(tt.cmd, fam); got != tt.want {
			t.Errorf("pipedOff(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestErrorLessonInsteadNotOneTasks: a lesson on an error nothing got
// past says what worked after it instead, but not a call of one task (a
// file of the task, one machine's path): that is no way to go for the
// next agent.
func TestErrorLessonInsteadNotOneTasks(t *testing.T) {
	for _, tt := range []struct {
		instead string
		said    bool
	}{
		{"cd /home/dev/shop/packages/cli && bun test src/flags.test.ts", false},
		{"bun test --bail", true},
	} {
		dir := t.TempDir()
		for _, id := range []string{"s1", "s2"} {
			writeClaude(t, dir, "/p", id, []step{
				write("/p/src/db.ts", "x"),
				run("bun run test", 1, "$ bun test\nerror: Missing SHOP_DB_URL or SHOP_DB_HOST\n 0 pass\n 1 fail"),
				run(tt.instead, 0, " 14 pass\n 0 fail"),
			})
		}
		cs := errorCandidates(t, dir)
		if len(cs) != 1 {
			t.Fatalf("instead %q: %d lessons on the error, want 1: %+v", tt.instead, len(cs), cs)
		}
		if said := strings.Contains(cs[0].Solution, tt.instead); said != tt.said || strings.Contains(cs[0].Solution, "/home/dev") {
			t.Errorf("instead %q: solution %q; want it said: %v, and no machine's path", tt.instead, cs[0].Solution, tt.said)
		}
	}
}

// TestErrorLessonNothingGotPastThenEdits: a shell failure nothing got
// past, followed by edits of files its output does not name (the agent
// did the work another way), is still a lesson nothing got past, once
// it came back in a second session; one whose output names the file
// edited after it is the task's own (a lint error of the code at hand).
// Before, any edit after an unsettled shell failure excused it, unless
// it was about the command itself.
func TestErrorLessonNothingGotPastThenEdits(t *testing.T) {
	dir := t.TempDir()
	refused := "Error: invalid environment: staging (expected one of: dev, prod)"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/README.md", "# shop\n"),
			run("shipit deploy --env staging", 1, refused),
			write("/p/deploy/targets.yaml", "dev: {}\n"),
			run("npm run lint", 1, "src/cart.ts:3:1 error Unexpected var, use let or const instead"),
			write("/p/src/cart.ts", "let total = 0\n"),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want the deploy's only: %+v", len(cs), cs)
	}
	c, cfg := cs[0], lessons.DefaultConfig()
	if !strings.Contains(c.Summary, "`shipit` failed with: Error: invalid environment") || len(c.Sessions) != 2 || !c.Reminder(cfg) {
		t.Errorf("summary %q, %d sessions, reminder %v: want the deploy's error, seen in both sessions, as a reminder", c.Summary, len(c.Sessions), c.Reminder(cfg))
	}
	if !errorFires(t, c, refused) {
		t.Errorf("error trigger %q misses the same error", c.Triggers.Errors)
	}
}

// TestErrorLessonGotAroundNotPast: a command of the failed family that
// worked doing another thing (another subcommand) got around the
// failure, not past it: a lesson nothing got past, once it came back in
// a second session. One that ran the same thing on another test aimed
// elsewhere, and is no lesson. Before, both were dropped.
func TestErrorLessonGotAroundNotPast(t *testing.T) {
	dir := t.TempDir()
	refused := "Error: no session attached to pane 'review-2'"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/NOTES.md", "# notes\n"),
			run("panectl capture review-2", 1, refused),
			run("panectl status review-2", 0, "review-2: idle"),
			run("pytest tests/test_cart.py", 1, "FAILED tests/test_cart.py::test_total - assert 3 == 4"),
			run("pytest tests/test_tax.py", 0, "1 passed"),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want the capture's only: %+v", len(cs), cs)
	}
	c, cfg := cs[0], lessons.DefaultConfig()
	if !strings.Contains(c.Summary, "failed with: Error: no session attached") || len(c.Sessions) != 2 || !c.Reminder(cfg) {
		t.Errorf("summary %q, %d sessions, reminder %v: want the capture's error, seen in both sessions, as a reminder", c.Summary, len(c.Sessions), c.Reminder(cfg))
	}
	if !errorFires(t, c, "Error: no session attached to pane 'build-7'") {
		t.Errorf("error trigger %q misses the same error for another pane", c.Triggers.Errors)
	}
}

// TestErrorLessonAnotherThingAsked: a command of the failed family that
// worked asked another thing, in each of two sessions, and nothing got
// past the failed one: its lesson is a reminder after the error. Another
// inline command (a query, a remote command: an argument of several
// words) had been dropped as a call aimed elsewhere; one too long to
// read as a word of the call (a SQL statement through ssh) read as the
// same call, and the one that worked as its fix; another action of the
// same program sharing too few words to pair (gh pr close after gh pr
// merge --auto was refused) read as what got past it.
func TestErrorLessonAnotherThingAsked(t *testing.T) {
	for _, tc := range []struct {
		name, failed, worked, err string
	}{
		{"inline command", `ssh deploy@box "systemctl restart shop"`, `ssh deploy@box "docker compose restart shop"`,
			"Failed to restart shop.service: Unit shop.service not found."},
		{"long query",
			`ssh root@box 'sqlite3 /var/lib/shop/shop.db "SELECT id, title, author FROM books WHERE title LIKE \"%Energy%\" ORDER BY id;"'`,
			`ssh root@box "sqlite3 /var/lib/shop/shop.db \"SELECT id, title, author FROM books WHERE title LIKE '%Energy%' ORDER BY id;\""`,
			`Error: in prepare, no such column: "%Energy%" - should this be a string literal in single-quotes?`},
		{"another action", "gh pr merge 234 --squash --auto 2>&1", `gh pr close 222 --comment "Superseded by #233, which migrated the server" 2>&1`,
			"GraphQL: Auto merge is not allowed for this repository (enablePullRequestAutoMerge)"},
	} {
		dir := t.TempDir()
		for _, id := range []string{"s1", "s2"} {
			writeClaude(t, dir, "/p", id, []step{
				write("/p/NOTES.md", "# notes\n"),
				run(tc.failed, 1, tc.err),
				run(tc.worked, 0, "done"),
			})
		}
		var cs []Candidate
		for _, c := range errorCandidates(t, dir) {
			if errorFires(t, c, tc.err) {
				cs = append(cs, c)
			}
		}
		if len(cs) != 1 || len(cs[0].Sessions) != 2 || !cs[0].Reminder(lessons.DefaultConfig()) {
			t.Errorf("%s: %+v: want one lesson nothing got past, seen in both sessions, a reminder after the error", tc.name, cs)
		}
	}
}

// TestErrorLessonToolErrorOfTheEnvironment: a tool's error that names
// what the call did not (the helper it runs, quoted) is the
// environment's: that the next call worked says nothing of how to call
// the tool, and the error comes back, so it is a lesson nothing got
// past, as when no call worked. Before, it was dropped.
func TestErrorLessonToolErrorOfTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	failed := "Error: timed out after 30000ms waiting for 'chrome-devtools-bridge' to answer"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/NOTES.md", "# notes\n"),
			call("browser_eval", map[string]any{"script": "document.title"}, true, failed),
			call("browser_eval", map[string]any{"script": "document.title.trim()"}, false, "Shop"),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || len(cs[0].Sessions) != 2 || !cs[0].Reminder(lessons.DefaultConfig()) {
		t.Fatalf("%+v: want one lesson nothing got past, seen in both sessions, a reminder", cs)
	}
	if !errorFires(t, cs[0], failed) {
		t.Errorf("error trigger %q misses the same error", cs[0].Triggers.Errors)
	}
}

// TestErrorLessonToolProgramGoneThenEdits: a search tool fails because
// the program it runs is gone (an error naming what the call did not),
// after the session changed a file, and the agent goes on editing files,
// with no search that worked, in
// each of two sessions. Editing files cannot get past a missing program:
// the lesson on the error stays. Before, the edits read as the task's
// way past it, and the lesson was dropped.
func TestErrorLessonToolProgramGoneThenEdits(t *testing.T) {
	dir := t.TempDir()
	failed := "ENOENT: no such file or directory, posix_spawn '/opt/homebrew/Caskroom/claude-code/2.1.14/claude'"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			call("Edit", map[string]any{"file_path": "/p/main.go", "old_string": "x", "new_string": "y"}, false, "updated"),
			call("Grep", map[string]any{"pattern": "AgentName"}, true, failed),
			call("Edit", map[string]any{"file_path": "/p/agent.go", "old_string": "a", "new_string": "b"}, false, "updated"),
		})
	}
	var said []Candidate // a lesson on the error or a known failure: the one said after it
	for _, c := range candidatesOf(t, dir) {
		if c.Reminder(lessons.DefaultConfig()) && errorFires(t, c, failed) {
			said = append(said, c)
		}
	}
	if len(said) != 1 || len(said[0].Sessions) != 2 {
		t.Fatalf("%+v: want one lesson said after the error, seen in both sessions", said)
	}
}

// TestDidOtherwise: which calls of a failed command's family that worked
// did another thing (the failure stays one nothing got past) and which
// aimed the same thing elsewhere or changed a setting. A flag's value is
// no subcommand: shellcheck -S warning after shellcheck failed changed
// how strict the check is, and is no other thing.
func TestDidOtherwise(t *testing.T) {
	for _, tc := range []struct {
		failed, worked string
		want           bool
	}{
		{"panectl capture review-2", "panectl status review-2", true},
		{"python -c 'import shop'", ".venv/bin/python -c 'import shop'", true},
		{`ssh box "systemctl restart shop"`, `ssh box "docker compose restart shop"`, true},
		{"pytest tests/test_cart.py", "pytest tests/test_tax.py", false},
		{"panectl send review-2 -P hi", "panectl send --help", false},
		{`shellcheck "scripts/setup.sh"`, `shellcheck -S warning "scripts/setup.sh"`, false},
		// another query, however long: not read as a word of the call
		{`sqlite3 app.db "SELECT id, title, author FROM books WHERE title LIKE \"%Energy%\" ORDER BY id"`,
			`sqlite3 app.db "SELECT id, title, author FROM books WHERE title LIKE '%Energy%' ORDER BY id"`, true},
		// another action of the program, sharing too few words to pair
		{"gh pr merge 234 --squash --auto 2>&1", `gh pr close 222 --comment "Superseded by #233" 2>&1`, true},
		{`ssh box 'cd /srv/app && docker compose logs --tail 50 web | grep -i error'`,
			`ssh box 'cd /srv/app && docker compose ps --format json && docker compose logs web'`, true},
	} {
		if got := didOtherwise(tc.failed, tc.worked); got != tc.want {
			t.Errorf("didOtherwise(%q, %q) = %v, want %v", tc.failed, tc.worked, got, tc.want)
		}
	}
}

// TestToolRetryAskingForAnotherThing: a fetch that got a 404, then a
// fetch of another URL in another format that worked. The error is about
// the URL; nothing shows the format fixed it, so the lesson says only
// that the error came before, after it. When the error names the
// setting, its change is the fix. Either is said after the error, not
// proposed (a lesson on the work's own error).
func TestToolRetryAskingForAnotherThing(t *testing.T) {
	for _, tc := range []struct {
		err   string
		fixed bool
	}{
		{"StatusCode: non 2xx status code (404 GET https://cdn.example.dev/pkg@1.2.0/dist/index.mjs)", false},
		{"Unsupported format 'text' for https://cdn.example.dev/pkg@1.2.0/dist/index.mjs", true},
	} {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", "s1", []step{
			call("WebFetch", map[string]any{"url": "https://cdn.example.dev/pkg@1.2.0/dist/index.mjs", "format": "text"}, true, tc.err),
			call("WebFetch", map[string]any{"url": "https://cdn.example.dev/pkg@1.2.0/dist/index.d.mts", "format": "markdown"}, false, "export declare function f(): void;"),
		})
		cs := errorCandidates(t, dir)
		if len(cs) != 1 || !atFailure(cs[0]) || (cs[0].Fixed != "") != tc.fixed || strings.Contains(cs[0].Solution, "format") != tc.fixed {
			t.Errorf("error %q: lessons %q, want one said after the error, naming the format %v", tc.err, summaries(cs), tc.fixed)
		}
	}
}

// TestToolRetryWithAnotherShape: a tool call whose argument the schema
// refused as an object, then the same argument as a list, which worked.
// The way of calling the tool changed, not its text: a lesson on the
// error says to pass a list. When the error names the type ("must be
// array") it says nothing the error does not (Signals.Reminds); when it
// names only the argument, it says more. Both are said after the error,
// not proposed. Before, any change inside an object or a list was read
// as another text, and nothing was learned.
func TestToolRetryWithAnotherShape(t *testing.T) {
	for _, tc := range []struct {
		err  string
		echo bool
	}{
		{"Output does not match required schema: /findings: must be array", true},
		{"Output does not match required schema: /findings: invalid value", false},
	} {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", "s1", []step{
			call("StructuredOutput", map[string]any{"findings": map[string]any{"findings": []any{}}}, true, tc.err),
			call("StructuredOutput", map[string]any{"findings": []any{}}, false, "Structured output provided successfully"),
		})
		cs := errorCandidates(t, dir)
		if len(cs) != 1 || !strings.Contains(cs[0].Solution, "`findings` as a list instead of an object") {
			t.Fatalf("%+v: want one lesson that says to pass findings as a list", cs)
		}
		if cs[0].Signals.Reminds != tc.echo || !atFailure(cs[0]) {
			t.Errorf("error %q: confidence %.2f, signals %+v: want said after the error, echoing it %v", tc.err, cs[0].Confidence, cs[0].Signals, tc.echo)
		}
		if !errorFires(t, cs[0], tc.err) {
			t.Errorf("triggers %+v do not fire on the same error", cs[0].Triggers)
		}
	}
}

// TestErrorLessonFixesDisagree: two sessions got past the same error in
// two ways (outside the sandbox; in the background): the lesson keeps
// the first fix and is said after the error, but is not proposed; a
// third session that got past it the first way again makes it one to
// propose.
func TestErrorLessonFixesDisagree(t *testing.T) {
	fail := "Exit code 1\nError: listen EPERM: operation not permitted 127.0.0.1"
	session := func(how string) []step {
		return []step{
			call("Bash", map[string]any{"command": "npm test"}, true, fail),
			call("Bash", map[string]any{"command": "npm test", how: true}, false, "12 passed"),
		}
	}
	cfg := lessons.DefaultConfig()
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", session("dangerouslyDisableSandbox"))
	writeClaude(t, dir, "/p", "s2", session("run_in_background"))
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %v", len(cs), summaries(cs))
	}
	if c := cs[0]; c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
		t.Errorf("confidence %.2f, reminder %v: two sessions that disagree on the fix, want said after the error, not proposed", c.Confidence, c.Reminder(cfg))
	}
	writeClaude(t, dir, "/p", "s3", session("dangerouslyDisableSandbox"))
	cs = errorCandidates(t, dir)
	if len(cs) != 1 || cs[0].Confidence < cfg.MinConfidence {
		t.Errorf("%v: the first fix came again, want it proposed", summaries(cs))
	}
}

// TestErrorLessonAroundASkippedCheck: in two sessions a commit fails in
// its hook, and goes through only with --no-verify. Switching the check
// off got around the failure, not past it: a lesson on the error nothing
// got past, which names the way around as no fix. Before, the bypass
// counted as the fix, and no lesson was written.
func TestErrorLessonAroundASkippedCheck(t *testing.T) {
	dir := t.TempDir()
	hook := "lint-staged..........Failed\nerror: hook 'eslint' exited with 2: Cannot find module 'eslint-config-shop'"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/src/cart.ts", "export {}\n"),
			run(`git commit -m "cart: totals"`, 1, hook),
			run(`git commit --no-verify -m "cart: totals"`, 0, "[main 1a2b3c4] cart: totals"),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1 on the hook's: %v", len(cs), summaries(cs))
	}
	c, cfg := cs[0], lessons.DefaultConfig()
	if len(c.Sessions) != 2 || c.Fixed != "" || !c.Reminder(cfg) {
		t.Errorf("%d sessions, fixed %q, reminder %v: want both sessions, no fix, said after the error", len(c.Sessions), c.Fixed, c.Reminder(cfg))
	}
	if !strings.Contains(c.Solution, "only with `--no-verify`") || !strings.Contains(c.Solution, "not a fix") {
		t.Errorf("solution %q: want the way around named as no fix", c.Solution)
	}
}

// TestCheckSkipped: the options and variables that switch a check off,
// and the ones that only answer how a command was called.
func TestCheckSkipped(t *testing.T) {
	for _, tc := range []struct{ failed, worked, want string }{
		{`git commit -m "x"`, `git commit --no-verify -m "x"`, "--no-verify"},
		{`git add a && git commit -m "x"`, `git commit --no-verify -m "x"`, "--no-verify"},
		{"mvn package", "mvn -DskipTests package", "-DskipTests"},
		{"git commit -m x", "SKIP=eslint git commit -m x", "SKIP=eslint"},
		{"git commit -m x", "git commit --no-gpg-sign -m x", "--no-gpg-sign"},
		{"apt-get install jq", "apt-get install -y jq", ""},
		{"git push", "git push --force-with-lease", ""},
		{"npm ci", "npm ci --ignore-scripts", ""},
		{"pytest", "pytest --no-cov", ""},
		{"git commit -m x", "git commit -m x", ""},
	} {
		if got := checkSkipped(tc.failed, tc.worked); got != tc.want {
			t.Errorf("checkSkipped(%q, %q) = %q, want %q", tc.failed, tc.worked, got, tc.want)
		}
	}
}

// TestFixInANewEnvironment: pip3 refused by an externally managed
// Python, then the same install by the virtualenv's pip after making and
// activating it: the environment got past the error, and the lesson on
// it says so.
func TestFixInANewEnvironment(t *testing.T) {
	refused := "error: externally-managed-environment\n\n× This environment is externally managed"
	// pip by its versioned name, and pip as the module Python runs
	for _, install := range []string{"pip3 install -r requirements.txt", "python3 -m pip install --user -r requirements.txt"} {
		dir := t.TempDir()
		writeClaude(t, dir, "/home/ann/app", "s1", []step{
			write("/home/ann/app/requirements.txt", "flask\n"),
			run(install, 1, refused),
			run("python3 -m venv .venv && source .venv/bin/activate && pip install -r requirements.txt", 0, "Successfully installed flask"),
		})
		cs := candidatesOf(t, dir)
		if !slices.ContainsFunc(cs, func(c Candidate) bool {
			return c.Kind == KindError && strings.Contains(c.Solution, "python3 -m venv .venv")
		}) {
			t.Errorf("%s: candidates %q: want a lesson on the error saying the virtualenv got past it", install, summaries(cs))
		}
	}
}

// TestTimedOutThenStartedInTheBackground: a dev server run in the
// foreground never ends and the shell tool stops it; started in the
// background it works. That is what got past the timeout, whatever was
// edited between, and the lesson on it comes after the next timeout of
// the family, whatever the server printed before it was stopped.
func TestTimedOutThenStartedInTheBackground(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		run("npm run dev", 143, "Command timed out after 2m 0.0s ⚠ Port 3000 is in use, trying 3001 instead.\n  ▲ Next.js 14.2.3"),
		write("/home/ann/app/src/page.tsx", "export default function P() { return null }\n"),
		run("nohup npm run dev > dev.log 2>&1 &", 0, ""),
		run("curl -s localhost:3001", 0, "<html>"),
	})
	cs := candidatesOf(t, dir)
	for _, c := range cs {
		if c.Kind != KindError || !strings.Contains(c.Solution, "started in the background it worked") {
			continue
		}
		if !errorFires(t, c, "Command timed out after 10s\n  ▲ Next.js 14.2.3 ready") {
			t.Errorf("trigger %v misses the next timeout", c.Triggers.Errors)
		}
		return
	}
	t.Errorf("candidates %q: want a lesson on the timeout that says the background run got past it", summaries(cs))
}

// TestInBackground: only a & that ends a command starts it in the
// background; nohup alone, or a redirection's &, does not.
func TestInBackground(t *testing.T) {
	for cmd, want := range map[string]bool{
		"nohup npm run dev > dev.log 2>&1 &":  true,
		"npm run dev & sleep 3 && curl :3000": true,
		"npm run dev&":                        true,
		"nohup npm run dev > dev.log 2>&1":    false,
		"npm run dev 2>&1 | tee dev.log":      false,
		"npm run build && npm start":          false,
	} {
		if got := inBackground(cmd); got != want {
			t.Errorf("inBackground(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestALookThatNeverEnded: `tail -f` is a look at a file, and a look that
// fails answers a question (the file is not there); one the shell tool
// stopped at its time limit never ended, and is a mistake of the call.
// The same log read with `tail -n` worked: a lesson on the timeout of
// tail, after the next one. Before, a look's failure was never watched,
// whatever its error.
func TestALookThatNeverEnded(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		run("tail -f logs/server.log", 143, "Command timed out after 2m 0.0s\n[info] GET /health 200"),
		run("tail -n 50 logs/server.log", 0, "[info] GET /health 200"),
	})
	cs := candidatesOf(t, dir)
	for _, c := range cs {
		if c.Kind != KindError || !strings.HasPrefix(c.Summary, "`tail`") {
			continue
		}
		if !strings.Contains(c.Solution, "tail -n 50") || !errorFires(t, c, "Command timed out after 20s") {
			t.Errorf("lesson %q %q %v: want the tail that worked, after the next timeout", c.Summary, c.Solution, c.Triggers.Errors)
		}
		return
	}
	t.Errorf("candidates %q: want a lesson on tail's timeout", summaries(cs))
}

// TestTimedOutThenRunInTheBackground: `cd api && npm run dev` runs until
// the shell tool stops it; the agent edits a file, then runs `npm run
// dev` with Claude Code's run_in_background. The setting got past the
// timeout, not the edit, and not another directory (the shell keeps the
// folder of the earlier cd); and a setting of the shell tool is the
// agent's way to call, not one task's values. Before, the edit was taken
// for the fix and nothing was learned; without it, the lesson said the
// command worked in another directory, or was one task's own call.
func TestTimedOutThenRunInTheBackground(t *testing.T) {
	for _, first := range []string{"cd /home/ann/app/api && npm run dev", "npm run dev"} {
		dir := t.TempDir()
		writeClaude(t, dir, "/home/ann/app/api", "s1", []step{
			run(first, 143, "Command timed out after 2m 0.0s\n> api@1.0.0 dev\n> ts-node-dev src/index.ts"),
			write("/home/ann/app/api/src/index.ts", "export {}\n"),
			call("Bash", map[string]any{"command": "npm run dev", "run_in_background": true}, false, "Command running in background with ID: bash_1"),
			run("curl -s localhost:3000/health", 0, "ok"),
		})
		var found bool
		for _, c := range ofKind(candidatesOf(t, dir), KindError) {
			if !strings.Contains(c.Solution, "`run_in_background` set to `true`") || strings.Contains(c.Solution, "that task's own call") {
				t.Errorf("%q: lesson %q, want the background setting as what got past it", first, c.Solution)
			}
			found = true
		}
		if !found {
			t.Errorf("%q: no lesson on the timeout", first)
		}
	}
}

// TestRunInsideTheFolderItWasGiven: a sync tool given a folder fails on
// its usage; run from inside that folder with no operand it works. That
// is the same command run elsewhere, the folder moved from its operand
// into a cd, and the lesson says to cd and not pass it. Before, the
// fixed command had a word fewer, so it was no run elsewhere, and
// nothing was learned.
func TestRunInsideTheFolderItWasGiven(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/c/Users/ann", "s1", []step{
		run(`gdrive-sync pull "C:/Users/ann/Desktop/SITE" 2>&1`, 1, "basename: missing operand\nTry 'basename --help' for more information."),
		run(`cd "C:/Users/ann/Desktop/SITE" && gdrive-sync pull 2>&1`, 0, "pulled 3 files"),
	})
	for _, c := range ofKind(candidatesOf(t, dir), KindError) {
		if strings.Contains(c.Solution, "cd into the folder, and do not pass it") {
			return
		}
	}
	t.Errorf("no lesson saying to run it inside the folder: %q", summaries(candidatesOf(t, dir)))
}

// TestDroppedInto: the folder a command was given, dropped from its
// words and cd'd into; not another word dropped, nor the program's name.
func TestDroppedInto(t *testing.T) {
	for _, tt := range []struct {
		failed, fixed, dir string
		want               bool
	}{
		{`gdrive-sync pull "C:/w/site"`, "gdrive-sync pull", `"C:/w/site"`, true},
		{"make -C build all", "make all", "build", false},
		{"npm test web", "npm test", "web/", true},
		{"site", "", "site", false},
		{"pytest tests", "pytest", "tests", true},
		{"ls", "", "", false},
	} {
		if got := droppedInto(tt.failed, tt.fixed, tt.dir); got != tt.want {
			t.Errorf("droppedInto(%q, %q, %q) = %v, want %v", tt.failed, tt.fixed, tt.dir, got, tt.want)
		}
	}
}

// TestLateFailureOfALongSession: a long session fails thirty ways before
// a failure that a retry gets past; the late one still gets its lesson.
// Before, a session watched its first 24 failures only, and a long
// session's later mistakes (past its first hours) were never learned.
func TestLateFailureOfALongSession(t *testing.T) {
	var steps []step
	for i := range 30 {
		steps = append(steps, run(fmt.Sprintf("tool%d --check", i), 1, fmt.Sprintf("tool%d: error: config file tool%d.toml is invalid", i, i)))
	}
	steps = append(steps,
		run("docker compose up --detach=yes", 125, "unknown flag: --detach=yes\nSee 'docker compose up --help'."),
		run("docker compose up -d", 0, "Container app-db-1 Started"),
	)
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", steps)
	for _, c := range ofKind(candidatesOf(t, dir), KindError) {
		if strings.Contains(c.Summary, "docker compose") {
			return
		}
	}
	t.Errorf("no lesson on the late docker compose failure")
}
