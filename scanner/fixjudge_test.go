package scanner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// A fix is judged by whether it changes what the error names: each test
// below writes a short history whose retry or step got past a failure
// without touching what failed, and wants no candidate a team would see
// (at or above minConfidence), or one that says the right thing.

// shown scans dir and returns the candidates at or above minConfidence.
func shown(t *testing.T, dir string) []Candidate {
	t.Helper()
	return scannedWhere(t, dir, func(c Candidate) bool { return c.Confidence >= lessons.DefaultConfig().MinConfidence })
}

// reaching scans dir and returns the candidates that reach the agent:
// proposed (at or above minConfidence), or said as reminders after their
// failure.
func reaching(t *testing.T, dir string) []Candidate {
	t.Helper()
	return scannedWhere(t, dir, func(c Candidate) bool {
		return c.Confidence >= lessons.DefaultConfig().MinConfidence || c.Reminder(lessons.DefaultConfig())
	})
}

// scannedWhere scans dir and returns the candidates keep takes.
func scannedWhere(t *testing.T, dir string, keep func(Candidate) bool) []Candidate {
	t.Helper()
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	return slices.DeleteFunc(candidates(t, state), func(c Candidate) bool { return !keep(c) })
}

func summaries(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Kind+": "+c.Summary)
	}
	return out
}

// TestPassingChecksAreNotTheError: a test run fails; its output lists
// passing checks whose names hold error words ("throws UnknownFlagError
// for unknown flags"); then the agent runs the linter, which works. The
// passing lines are not a usage error, and lint is not a fix of test.
func TestPassingChecksAreNotTheError(t *testing.T) {
	dir := t.TempDir()
	out := "pkg/core:test: (pass) parseFlags > throws UnknownFlagError for unknown flags [0.53ms]\n" +
		"pkg/core:test: (pass) parseFlags > throws MissingFlagValueError without a value [0.04ms]\n" +
		"pkg/core:test: (fail) planner > renames a column [2.10ms]\n" +
		"pkg/core:test:  1 fail\n"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("bun run test 2>&1", 1, out),
			run("bun run lint 2>&1", 0, "Checked 40 files"),
		})
	}
	for _, c := range shown(t, dir) {
		if c.Kind == KindRetry {
			t.Errorf("a retry from a failing test run and a lint run: %s", c.Summary)
		}
	}
}

// TestAnotherIDIsNoFix: polling a process timed out, and the next poll
// of another session id worked: another id is nothing a future agent can
// do differently; nor is another count the error did not name, or
// another search pattern. A smaller limit after an error that asks for
// offset and limit is a fix, but the error says it already: the lesson
// comes after that error as a reminder, and is not proposed.
func TestAnotherIDIsNoFix(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		call("write_stdin", map[string]any{"session_id": 4, "yield_time_ms": 1000}, true, "Timeout waiting for: build-cli"),
		call("write_stdin", map[string]any{"session_id": 7, "yield_time_ms": 5000}, false, "done"),
		call("mcp__tracks__list", map[string]any{"limit": 50}, true, "ERROR: column usr.name does not exist (SQLSTATE 42703)"),
		call("mcp__tracks__list", map[string]any{"limit": 20}, false, "[]"),
		call("Grep", map[string]any{"pattern": `Render\(tc\.`, "path": "/p/src"}, true,
			"Search failed: ripgrep rejected the pattern, glob, or file type without searching"),
		call("Grep", map[string]any{"pattern": `\bRender\(tmpl`, "path": "/p/src"}, false, "src/a.go"),
		call("Read", map[string]any{"file_path": "/p/logs/run.log", "limit": 3000}, true,
			"File content (31000 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file."),
		call("Read", map[string]any{"file_path": "/p/logs/run.log", "limit": 400}, false, "line 1"),
	})
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	cfg := lessons.DefaultConfig()
	var lesson []Candidate
	for _, c := range candidates(t, state) {
		if c.Confidence >= cfg.MinConfidence || c.Reminder(cfg) {
			lesson = append(lesson, c)
		}
	}
	if len(lesson) != 1 || lesson[0].Tool != "Read" || !strings.Contains(lesson[0].Solution, "another `limit`") || lesson[0].Confidence >= cfg.MinConfidence {
		t.Errorf("candidates %q: want only the Read lesson, with its limit, as a reminder", summaries(lesson))
	}
}

// TestToolErrorOneLesson: the same tool error on a .log in one checkout
// and a .md in another is one lesson, seen in two projects.
func TestToolErrorOneLesson(t *testing.T) {
	dir := t.TempDir()
	for i, p := range []struct{ project, file string }{{"/w/alpha", "/w/alpha/logs/run.log"}, {"/w/beta", "/w/beta/docs/spec.md"}} {
		writeClaude(t, dir, p.project, []string{"s1", "s2"}[i], []step{
			call("Read", map[string]any{"file_path": p.file}, true,
				"File content (2"+string(rune('6'+i))+"000 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file."),
			call("Read", map[string]any{"file_path": p.file, "offset": 1, "limit": 500}, false, "line 1"),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || len(cs[0].Projects) != 2 {
		t.Fatalf("%d lessons on the Read error (%q), want one from both projects", len(cs), summaries(cs))
	}
	if strings.Contains(cs[0].Solution, "this project") {
		t.Errorf("solution %q: a tool's own error is not of one project", cs[0].Solution)
	}
}

// TestStepMustTouchWhatTheErrorNames: the type checker fails on the
// agent's code (and a stub is missing for a library); the linter runs;
// the type checker works. A clone directory is removed before a module
// error. Neither step touches what the error names: no lesson.
func TestStepMustTouchWhatTheErrorNames(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("uv run mypy src/ 2>&1", 1, "src/app/state.py:48: error: Missing type parameters for generic type \"dict\"  [type-arg]\n"+
			"src/app/units.py:24: error: Library stubs not installed for \"yaml\"  [import-untyped]\nFound 2 errors in 2 files"),
		run("uv run ruff check . 2>&1", 0, "All checks passed!"),
		run("uv run mypy src/ 2>&1", 0, "Success: no issues found in 40 source files"),
		run("bun test 2>&1", 1, "error: Cannot find module 'left-pad' from '/p/src/pad.test.ts'"),
		run("rm -rf /p/tmp/clone-x8Hq2", 0, ""),
		run("bun test 2>&1", 0, "12 pass"),
	})
	if cs := errorCandidates(t, dir); len(cs) != 0 {
		t.Errorf("lessons naming steps the errors did not name: %q", summaries(cs))
	}

}

// TestBypassIsNoFix: a commit fails because its hook's tests fail, and
// the same commit with --no-verify works: the flag got around the
// failure, which names nothing of it.
func TestBypassIsNoFix(t *testing.T) {
	dir := t.TempDir()
	fail := "$ bun test\n(fail) queue > retries a failed task [3ms]\nerror: Item 3 failed\n" +
		"error: Cannot find module 'left-pad' from '/p/tmp/clones/x/a.test.ts'\n 1 fail\nhusky - pre-commit script failed (code 1)"
	writeClaude(t, dir, "/p", "s1", []step{
		run(`git commit -m "Add backoff"`, 1, fail),
		run(`git commit --no-verify -m "Add backoff"`, 0, "[main 1a2b3c4] Add backoff"),
	})
	if cs := shown(t, dir); len(cs) != 0 {
		t.Errorf("candidates from a commit that skipped its hook: %q", summaries(cs))
	}

	// an option that governs what the error names is a fix, though the
	// error quotes a name the commands do not hold
	dir = t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("pytest -q tests", 1, "PermissionError: [Errno 13] Permission denied: '.pytest_cache'"),
		run("pytest -q -p no:cacheprovider tests", 0, "3 passed"),
	})
	if cs := reaching(t, dir); len(cs) != 1 || cs[0].Kind != KindRetry {
		t.Errorf("candidates %q: want the retry that turned the cache off", summaries(cs))
	}
}

// TestFilterIsNoFix: the type checker fails, then the same run piped to
// grep, or to grep, sort and uniq, "works": its exit status is the last
// filter's.
func TestFilterIsNoFix(t *testing.T) {
	for _, filter := range []string{`grep -E "(units|state\.py:48)"`, `grep -oP '\[[a-z-]+\]$' | sort | uniq -c | sort -rn`} {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", "s1", []step{
			run("uv run mypy src/ 2>&1", 1, "src/app/state.py:48: error: Missing type parameters for generic type \"dict\"  [type-arg]\n"+
				"src/app/units.py:24: error: Library stubs not installed for \"yaml\"  [import-untyped]\nFound 2 errors in 2 files (checked 40 source files)"),
			run(`uv run mypy src/ 2>&1 | `+filter, 0, "src/app/state.py:48: error: Missing type parameters"),
		})
		if cs := shown(t, dir); len(cs) != 0 {
			t.Errorf("candidates from a run piped to %s: %q", filter, summaries(cs))
		}
	}
}

// TestOneOffFixText: a fix that names a path of this machine stays
// below minConfidence, even when the error printed that path.
func TestOneOffFixText(t *testing.T) {
	dir := t.TempDir()
	move := "mv /home/u/proj/specs/001/spec.md /home/u/proj/spec/014_status_bar/ && rmdir /home/u/proj/specs/001"
	writeClaude(t, dir, "/p", "s1", []step{
		run(move, 1, "mv: rename /home/u/proj/specs/001/spec.md to /home/u/proj/spec/014_status_bar/: No such file or directory"),
		run("mkdir -p /home/u/proj/spec/014_status_bar && "+move, 0, ""),
	})
	if cs := shown(t, dir); len(cs) != 0 {
		t.Errorf("one task's fixes at or above minConfidence: %q", summaries(cs))
	}
}

// TestTestNamesAreOneOff: a retry that runs other tests by name (a
// Rust path, a snake_case test name) chose what one task ran: it stays
// below minConfidence in a single session. Before, "cargo test: add
// tera::tests::test_get_env" was proposed to the team.
func TestTestNamesAreOneOff(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("cargo test test_parse_task_script_usage", 101, "error: no test named test_parse_task_script_usage found"),
		run("cargo test tera::tests::test_get_env_function", 0, "test result: ok. 1 passed"),
		run("cargo test --lib test_split_version_prefix_of_semver", 101, "error[E0425]: cannot find function `split` in this scope"),
		run("cargo test --lib semver::tests::split_prefix", 0, "test result: ok. 1 passed"),
	})
	if cs := shown(t, dir); len(cs) != 0 {
		t.Errorf("one task's test names at or above minConfidence: %q", summaries(cs))
	}
	for _, tt := range []struct {
		w    string
		want bool
	}{
		{"tera::tests::test_get_env_function", true}, {"test_split_version_prefix", true},
		{"lint:fix", false}, {"task_usage", false}, {"PYTHONIOENCODING=utf-8", false}, {"--no-verify", false},
	} {
		if got := taskToken(tt.w); got != tt.want {
			t.Errorf("taskToken(%q) = %v, want %v", tt.w, got, tt.want)
		}
	}
}

// TestFreeText: a fix's command that carries one task's text (a
// message, an inline script) is one task's; a value is not.
func TestFreeText(t *testing.T) {
	for _, tt := range []struct {
		fix  string
		want bool
	}{
		{"`tmux-send agent-2 \"Also check whether the run count belongs to the policy\"` worked (drop -m)", true},
		{"run `uv run python -c \"\nfrom sqlalchemy import text\nengine.execute(text('ALTER TABLE x'))\"`", true},
		{"run `git commit -F - <<'EOF'`", true},
		{"`tmux-send agent-2 \"Also check whether the run count belongs to` worked", true}, // cut inside its quote
		{"`git log --format='%h %s' -5` worked (add --format)", false},
		{"it worked when run again after you run `npm run lint:fix`: do that first", false},
	} {
		if got := freeText(tt.fix); got != tt.want {
			t.Errorf("freeText(%q) = %v, want %v", tt.fix, got, tt.want)
		}
	}
}

// TestPreconditionOnBareCommandIsErrorGated: the compiler is missing
// until the dependencies are installed: the lesson comes after that
// error, not before every call of the compiler.
func TestPreconditionOnBareCommandIsErrorGated(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("bun run typecheck", 127, "@acme/core typecheck: /usr/bin/bash: line 1: tsc: command not found\nerror: script \"typecheck\" exited with code 127"),
		run("bun install", 0, "120 packages installed"),
		run("bun run typecheck", 0, ""),
	})
	var pre []Candidate
	for _, c := range reaching(t, dir) {
		if c.Kind == KindPrecondition {
			pre = append(pre, c)
		}
	}
	if len(pre) != 1 {
		t.Fatalf("%d precondition lessons reaching the agent, want 1", len(pre))
	}
	if len(pre[0].Triggers.Errors) == 0 || !errorFires(t, pre[0], "@acme/core typecheck: /bin/bash: line 4: tsc: command not found") ||
		errorFires(t, pre[0], `error: script "lint" exited with code 1`) {
		t.Errorf("triggers %+v: want the lesson gated on the missing compiler, not on the runner's status line nor before every bun run", pre[0].Triggers)
	}
}

// TestRetryToAnotherInterpreter: the system python3 lacks a package and
// the project's virtualenv interpreter has it: the lesson names that
// interpreter, and comes after the error (python3 works for much else).
func TestRetryToAnotherInterpreter(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run(`python3 -c "import httpx"`, 1, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'httpx'"),
		run(`.venv/bin/python -c "import httpx"`, 0, ""),
	})
	cs := ofKind(reaching(t, dir), KindRetry)
	if len(cs) != 1 || !strings.Contains(cs[0].Summary, ".venv/bin/python") {
		t.Fatalf("candidates %q: want one naming .venv/bin/python", summaries(cs))
	}
	if len(cs[0].Triggers.Errors) == 0 {
		t.Errorf("triggers %+v: want it gated on the missing module", cs[0].Triggers)
	}
}

// TestReadOfADirectory: Read given a directory, then a file inside it,
// in two sessions: the lesson says so in words of any task, but only as
// a reminder after the error, never proposed: the error named the
// directory, and the next call did what it said.
func TestReadOfADirectory(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", s, []step{
			call("Read", map[string]any{"file_path": "/p/specs/008_source_selector"}, true,
				"EISDIR: illegal operation on a directory, read '/p/specs/008_source_selector'"),
			call("Read", map[string]any{"file_path": "/p/specs/008_source_selector/spec.md"}, false, "# Spec"),
		})
	}
	cs := errorCandidates(t, dir)
	if len(cs) != 1 || !strings.Contains(cs[0].Solution, "a file inside the directory") || strings.Contains(cs[0].Solution, "008_source_selector") {
		t.Fatalf("lessons on the error %q: want one, with no path of this task", summaries(cs))
	}
	if c := cs[0]; !c.Reminder(lessons.DefaultConfig()) || c.Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Errorf("reminder %v, confidence %v: want a reminder below minConfidence, the error having said what the next call did", c.Reminder(lessons.DefaultConfig()), c.Confidence)
	}
}

// TestPreludeBeforeTheFirstCommand: a retry that ran a cd before a
// chain is about the chain's first command that needed it, not its last.
func TestPreludeBeforeTheFirstCommand(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	chain := `git add cmd/app.go && git commit -m "Fix the list" && git push`
	writeClaude(t, dir, "/p", "s1", []step{
		run(chain, 128, "warning: could not open directory 'cmd/cmd/': No such file or directory\nfatal: pathspec 'cmd/app.go' did not match any files"),
		run("cd /p && "+chain, 0, "[main 1a2b3c4] Fix the list"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	c := find(candidates(t, state), KindRetry, "git add")
	if c == nil {
		t.Fatal("no retry candidate")
	}
	if !commandFires(c.Triggers, "git add cmd/other.go") || commandFires(c.Triggers, "git push origin main") {
		t.Errorf("command triggers %q: want git add, not git push", c.Triggers.Commands)
	}
}

// TestCdToTheProjectRootSaidByItsRelation: git add fails in the folder an
// earlier cd left the shell in, and works after a cd to the project's
// directory: the lesson says to run it from the project's root, which
// holds on every machine, not this machine's path, and it is no one-off.
func TestCdToTheProjectRootSaidByItsRelation(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/shop", "s1", []step{
		run("cd /home/ann/shop/server && make build", 0, "ok"),
		write("/home/ann/shop/server/cart.go", "package cart"),
		run("git add server/cart.go && git commit -m 'cart: totals'", 128,
			"warning: could not open directory 'server/server/': No such file or directory\nfatal: pathspec 'server/cart.go' did not match any files"),
		run("cd /home/ann/shop && git add server/cart.go && git commit -m 'cart: totals'", 0, "[main 1a2b3c4] cart: totals"),
	})
	var got []Candidate
	for _, c := range reaching(t, dir) {
		if c.Kind == KindRetry {
			got = append(got, c)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d retry lessons reaching the agent, want 1: %v", len(got), summaries(reaching(t, dir)))
	}
	if s := got[0].Summary; !strings.Contains(s, "project's root") || strings.Contains(s, "/home/ann") {
		t.Errorf("summary %q: want the project's root, not this machine's path", s)
	}
	// read as a project of another name (replay --as-project), the
	// session's directory is still its root
	var named []string
	_, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{dir}, Workers: 1, Candidates: true, Project: "shop"},
		func(s *LoggedSession) *LoggedSession { return s },
		func(s *LoggedSession) error {
			for _, c := range s.Candidates {
				if c.Kind == KindRetry {
					named = append(named, c.Summary)
				}
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(named) != 1 || !strings.Contains(named[0], "project's root") {
		t.Errorf("read as project shop: retry lessons %q, want one that runs it from the project's root", named)
	}
}

// TestCdToTheRootOfTwoWorktrees: the same mistake in two worktrees of
// one project (the shell left in a subfolder, git add of a path from the
// root, then a cd to the worktree's folder) is one lesson seen in two
// sessions, proposed: run it from the project's root. A cd to a full
// path before the command keeps it quiet; none fires it. Before, the
// unless named one worktree's folder: a cd to another checkout's root
// fired it, and lessons learned in two worktrees did not always fold
// into one (v26's procrypto: two, of four sessions and of two).
func TestCdToTheRootOfTwoWorktrees(t *testing.T) {
	dir := t.TempDir()
	for id, wt := range map[string]string{"s1": "/home/ann/shop/.worktrees/cart", "s2": "/home/ann/shop/.worktrees/tax"} {
		writeClaude(t, dir, wt, id, []step{
			run("cd "+wt+"/server && make build", 0, "ok"),
			write(wt+"/server/cart.go", "package cart"),
			run("git add server/cart.go && git commit -m 'cart: totals'", 128,
				"warning: could not open directory 'server/server/': No such file or directory\nfatal: pathspec 'server/cart.go' did not match any files"),
			run("cd "+wt+" && git add server/cart.go && git commit -m 'cart: totals'", 0, "[main 1a2b3c4] cart: totals"),
		})
	}
	got := ofKind(candidatesOf(t, dir), KindRetry)
	if len(got) != 1 || len(got[0].Sessions) != 2 || got[0].Confidence < lessons.DefaultConfig().MinConfidence {
		t.Fatalf("%+v: want one retry lesson of both sessions, proposed", got)
	}
	for cmd, want := range map[string]bool{
		"git add server/tax.go":                      true,
		"cd /home/bob/shop && git add server/tax.go": false,
		"cd ~/src/shop && git add -A":                false,
		"git status":                                 false,
	} {
		if commandFires(got[0].Triggers, cmd) != want {
			t.Errorf("fires before %q = %v, want %v", cmd, !want, want)
		}
	}
}

// TestRetryDropsAListValue: a flag's list names a field the command does
// not have, the error names it, and the retry's list lacks it (and holds
// other fields of the task): the lesson drops that value, before any
// call whose list holds it. A list changed by a value the error does not
// name, or with nothing dropped, is the task's choice: no lesson.
func TestRetryDropsAListValue(t *testing.T) {
	unknown := "Unknown JSON field: \"reviewThreads\"\nAvailable fields:\n  additions\n  author\n  baseRefName\n  body"
	for _, tc := range []struct {
		name, fixed string
		want        bool
	}{
		{"named and dropped", "gh pr view 12 --json title,body,comments,latestReviews,files", true},
		{"nothing dropped", "gh pr view 12 --json title,body,comments,reviewThreads,files", false},
		{"another dropped", "gh pr view 12 --json title,reviewThreads,files", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeClaude(t, dir, "/p", "s1", []step{
				run("gh pr view 12 --json title,body,comments,reviewThreads", 1, unknown),
				run("git status --short", 0, ""),
				run(tc.fixed, 0, "{}"),
			})
			var got *Candidate
			for _, c := range reaching(t, dir) {
				if c.Kind == KindRetry {
					got = &c
				}
			}
			if (got != nil) != tc.want {
				t.Fatalf("retry lesson %v, want %v: %q", got != nil, tc.want, summaries(reaching(t, dir)))
			}
			if got == nil {
				return
			}
			if !strings.Contains(got.Summary, "drop reviewThreads from --json") {
				t.Errorf("summary %q: want it to drop the value the error named", got.Summary)
			}
			if !commandFires(got.Triggers, "gh pr view 40 --json reviewThreads,url") || commandFires(got.Triggers, "gh pr view 40 --json title,url") {
				t.Errorf("triggers %+v: want them before a list that holds the value, and only then", got.Triggers)
			}
		})
	}
}

// TestCdOnceIsSaidNotProposed: where the shell stood is its session's: a
// retry that ran the command from another directory, seen in one
// session, is said after the same error, not proposed, though the same
// error came back in another session for another reason (a file never
// written); the same slip in a second session is proposed.
func TestCdOnceIsSaidNotProposed(t *testing.T) {
	slip := []step{
		run("cd /home/ann/shop/server && make build", 0, "ok"),
		write("/home/ann/shop/server/cart.go", "package cart"),
		run("git add server/cart.go && git commit -m 'cart: totals'", 128,
			"warning: could not open directory 'server/server/': No such file or directory\nfatal: pathspec 'server/cart.go' did not match any files"),
		run("cd /home/ann/shop && git add server/cart.go && git commit -m 'cart: totals'", 0, "[main 1a2b3c4] cart: totals"),
	}
	cfg := lessons.DefaultConfig()
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/shop", "other", []step{
		run("git add server/gone.go", 128, "fatal: pathspec 'server/gone.go' did not match any files"),
		run("git status --short", 0, " M server/cart.go"),
	})
	for i, want := range []bool{false, true} {
		writeClaude(t, dir, "/home/ann/shop", fmt.Sprintf("s%d", i), slip)
		var c *Candidate
		for _, r := range reaching(t, dir) {
			if r.Kind == KindRetry {
				c = &r
			}
		}
		if c == nil {
			t.Fatalf("after %d sessions: no retry lesson", i+1)
		}
		if got := c.Confidence >= cfg.MinConfidence; got != want || !c.Reminder(cfg) {
			t.Errorf("after %d sessions: proposed %v (confidence %.2f), want %v; reminder %v, want true", i+1, got, c.Confidence, want, c.Reminder(cfg))
		}
	}
}
