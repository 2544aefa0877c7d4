package scanner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestPreconditionProblemLeadsWithTheWorld: a precondition fix's problem
// leads with the line about the world (the module not found), not the
// runner's banner before it, so that its trigger narrowed to its error
// comes after that error and not after every run the banner prints in.
func TestPreconditionProblemLeadsWithTheWorld(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	out := func(err string) string {
		return "bun test v1.3.5\n\nsrc/index.test.ts:\n\n# Unhandled error between tests\n-------------------------------\n" + err +
			"\n-------------------------------\n\n 0 pass\n 1 fail\n 1 error"
	}
	writeClaude(t, dir, "/p", "s1", []step{
		run("bun test", 1, out("error: Cannot find module '@acme/core' from '/w/one/src/index.test.ts'")),
		run("bun run build --filter=@acme/core", 0, "built"),
		run("bun test", 0, "3 pass"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	pre := ofKind(candidates(t, state), KindPrecondition)
	if len(pre) != 1 {
		t.Fatalf("%d precondition fixes, want 1", len(pre))
	}
	c := pre[0]
	if !strings.HasPrefix(c.Problem, "error: Cannot find module") {
		t.Fatalf("problem %q: want it to lead with the module not found", c.Problem)
	}
	if !c.narrowToError() {
		t.Fatal("no error trigger")
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString(out("error: Cannot find module '@acme/core' from '/w/two/src/cart.test.ts'")); !ok {
		t.Errorf("error trigger %q misses the same module missing in another checkout", c.Triggers.Errors[0])
	}
	if ok, _ := re.MatchString(out("error: expect(received).toBe(expected)")); ok {
		t.Errorf("error trigger %q comes after any failing run", c.Triggers.Errors[0])
	}
}

// TestPreconditionFixer: a lint check fails on formatting; the project's
// fixer runs, nothing else changes, and the check passes: "before the
// check, run the fixer", though the error says nothing about the world.
// An edit of the code between makes it the task's fix: no lesson; and a
// fixer that did not come before the check passed teaches nothing.
func TestPreconditionFixer(t *testing.T) {
	lint := "$ biome check --error-on-warnings .\nsrc/cart.ts format ━━━━━━━━━━━━━━━━━━━━\n  × Formatter would have printed the following content:\nChecked 42 files in 12ms. Found 1 error.\nerror: script \"lint\" exited with code 1"
	for _, c := range []struct {
		name  string
		steps []step
		want  int
	}{
		{"fixer", []step{run("bun run lint", 1, lint), run("bun run lint:fix", 0, "Fixed 1 file."), run("bun run lint", 0, "Checked 42 files in 10ms. No fixes applied.")}, 1},
		{"fix flag", []step{run("npx eslint src", 1, "src/cart.ts\n  3:1  error  Expected indentation of 2 spaces  indent\n\n✖ 1 problem (1 error, 0 warnings)"),
			run("npx eslint --fix src", 0, ""), run("npx eslint src", 0, "")}, 1},
		{"edit between", []step{run("bun run lint", 1, lint), run("bun run lint:fix", 0, "Fixed 1 file."), call("Edit", map[string]any{"file_path": "/p/src/cart.ts", "old_string": "a", "new_string": "b"}, false, "ok"), run("bun run lint", 0, "No fixes applied.")}, 0},
		{"no fixer", []step{run("bun run lint", 1, lint), run("bun run build", 0, "built"), run("bun run lint", 0, "No fixes applied.")}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			writeClaude(t, dir, "/p", "s1", c.steps)
			scan(t, state, Options{Paths: []string{dir}})
			var pre []Candidate
			for _, k := range candidates(t, state) {
				if k.Kind == KindPrecondition {
					pre = append(pre, k)
				}
			}
			if len(pre) != c.want {
				t.Fatalf("%d precondition fixes %+v, want %d", len(pre), pre, c.want)
			}
			if c.want == 1 && !strings.Contains(pre[0].Solution, "run `") {
				t.Errorf("solution %q does not name the fixer", pre[0].Solution)
			}
		})
	}
}

// TestPreconditionLookedBeforeWriting: a command reads a file that is not
// there yet, the agent writes that file and reads it again. Writing the
// file it looked for is the task's own work, not a step to take before
// the command. A tool that fails for want of a file it did not name (its
// config), written and run again, is still a precondition fix. A step
// after the write that names the file too (git add) is no fix of it.
func TestPreconditionLookedBeforeWriting(t *testing.T) {
	for _, tc := range []struct {
		name, failed, out, path string
		want                    bool
	}{
		{"read before writing", "sed -n '1,40p' cmd/app/main.go", "sed: cmd/app/main.go: No such file or directory", "/p/cmd/app/main.go", false},
		{"a file the tool looks for", "acme deploy", "Error: acme.yaml not found in /p", "/p/acme.yaml", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := scanned(t, []step{
				run(tc.failed, 1, tc.out),
				write(tc.path, "package main\n"),
				run("git add "+strings.TrimPrefix(tc.path, "/p/"), 0, ""), // a step the error names too
				run(tc.failed, 0, "ok"),
			})
			if got := hasKind(cs, KindPrecondition, 0); got != tc.want {
				t.Errorf("precondition fix found: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPreconditionNotAGitStep: a check fails, the agent makes a worktree
// and stages files (steps the error does not name), and the check then
// passes: what the repository records is the task's work, no step a
// check needs first. An install the error does not name is one. A
// branch the error names, made and then deleted, is the task's too.
func TestPreconditionNotAGitStep(t *testing.T) {
	for _, tc := range []struct {
		failed, out, first, then string
		want                     bool
	}{
		{"npm run typecheck", "sh: tsc: command not found", "git worktree add ../wt/fix-cart -b fix-cart origin/main", "npm run typecheck", false},
		{"npm run typecheck", "sh: tsc: command not found", "npm install", "npm run typecheck", true},
		{"git worktree remove --force ../wt/core && git branch -D feature/core", "error: branch 'feature/core' not found",
			"git worktree add ../wt/core -b feature/core main", "git branch --show-current", false},
	} {
		cs := scanned(t, []step{
			run(tc.failed, 2, tc.out),
			run(tc.first, 0, ""),
			run(tc.then, 0, "ok"),
		})
		if got := hasKind(cs, KindPrecondition, 0); got != tc.want {
			t.Errorf("%q after %q: precondition fix %v, want %v", tc.failed, tc.first, got, tc.want)
		}
	}
}

// TestPreconditionNotWhatTheCommandRan: a chain fails, the agent runs its
// first step alone and then its second, which works: the failed command
// had run that step already, so it lacked no step before it.
func TestPreconditionNotWhatTheCommandRan(t *testing.T) {
	chain := "go build -o /tmp/tool ./cmd/tool && go run ./cmd/app index"
	cs := scanned(t, []step{
		run(chain, 1, "stat /p/sub/cmd/tool: directory not found"),
		run("go build -o /tmp/tool ./cmd/tool", 0, ""),
		run("go run ./cmd/app index", 0, "indexed"),
	})
	if hasKind(cs, KindPrecondition, 0) {
		t.Errorf("candidates %q: want no precondition fix from a step the chain ran itself", summaries(cs))
	}
}

// TestPreconditionNotTheSameSetupCorrected: a script's init step failed
// on a wrong path to the script; the same init with the right path worked,
// then another command of the script. The init run again is the failed
// call corrected, not a step it lacked: no "first run init". A command
// that is no setup of its own still learns its setup step.
func TestPreconditionNotTheSameSetupCorrected(t *testing.T) {
	cs := scanned(t, []step{
		run(`node "$HOME/.claude/gsd/bin/gsd-tools.cjs" init plan-phase 14`, 1, "Error: Cannot find module '/home/u/.claude/gsd/bin/gsd-tools.cjs'"),
		run(`node "$HOME/.claude-work/gsd/bin/gsd-tools.cjs" init plan-phase 14`, 0, `{"phase":14}`),
		run(`node "$HOME/.claude-work/gsd/bin/gsd-tools.cjs" roadmap get-phase 14`, 0, `{"phase":14}`),
	})
	if hasKind(cs, KindPrecondition, 0) {
		t.Errorf("candidates %q: want no precondition from the failed call run again with the right path", summaries(cs))
	}
	cs = scanned(t, []step{
		run("python manage.py test", 1, "django.db.utils.OperationalError: no such table: shop_order"),
		run("python manage.py migrate", 0, "Applying shop.0001_initial... OK"),
		run("python manage.py test", 0, "OK"),
	})
	if !hasKind(cs, KindPrecondition, 0) {
		t.Errorf("candidates %q: want the migrate step before the tests", summaries(cs))
	}
}

// TestPreconditionOnAPathOfThisMachine: a command fails for want of a
// folder the error names; the agent makes it, by this machine's path,
// and the command works. The step is the error's, but its path is one
// checkout's: held back, not even said at the failure, until another
// session needs it. The same step on the project's own path is said at
// the failure (fixedOnce).
func TestPreconditionOnAPathOfThisMachine(t *testing.T) {
	for dir, said := range map[string]bool{"/home/dev/wt/core/out": false, "out": true} {
		cs := scanned(t, []step{
			run("make report", 2, "cp: cannot create regular file 'out/report.txt': No such file or directory"),
			run("mkdir -p "+dir, 0, ""),
			run("make report", 0, "ok"),
		})
		c := find(cs, KindPrecondition, "make report")
		if c == nil {
			t.Fatalf("mkdir -p %s: candidates %q, want a precondition fix", dir, summaries(cs))
		}
		if got := atFailure(*c); got != said {
			t.Errorf("mkdir -p %s: said at the failure %v, want %v (confidence %.2f)", dir, got, said, c.Confidence)
		}
	}
}

// TestPreconditionRepairedOnce: a test run fails on a module the error
// names; the agent installs it and the run works. The step repaired the
// one thing for good: seen in one session it is said after the same
// error, not proposed; when the mistake comes back in another session,
// it is proposed. A step the error does not name (the project's own
// install) is proposed once the failure came back, whatever got past it
// the second time; seen once, it too is said after the error only.
func TestPreconditionRepairedOnce(t *testing.T) {
	for _, tc := range []struct {
		steps    []string // one session each
		want     string
		proposed bool
	}{
		{[]string{"pip install httpx"}, "pip install httpx", false},
		{[]string{"pip install httpx", "pip install httpx"}, "pip install httpx", true},
		{[]string{"pip install -e ."}, "pip install -e .", false},
		{[]string{"pip install -e .", "pip install httpx"}, "pip install -e .", true},
	} {
		dir := t.TempDir()
		for i, fix := range tc.steps {
			writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i), []step{
				run("pytest tests/test_api.py", 1, "ModuleNotFoundError: No module named 'httpx'"),
				run(fix, 0, "Successfully installed"),
				run("pytest tests/test_api.py", 0, "3 passed"),
			})
		}
		var c *Candidate
		for _, r := range reaching(t, dir) {
			if r.Kind == KindPrecondition && strings.Contains(r.Summary, tc.want) {
				c = &r
			}
		}
		if c == nil {
			t.Fatalf("sessions %q: no precondition fix naming %s", tc.steps, tc.want)
		}
		cfg := lessons.DefaultConfig()
		if got := c.Confidence >= cfg.MinConfidence; got != tc.proposed || !c.Reminder(cfg) {
			t.Errorf("sessions %q, %s: proposed %v (confidence %.2f), want %v; reminder %v, want true", tc.steps, tc.want, got, c.Confidence, tc.proposed, c.Reminder(cfg))
		}
	}
}

// TestPreconditionTheCheckUndone: a format check fails with its diff, and
// the same command without its check option rewrites the code, in two
// sessions. The check printed what that does: said after the failure,
// not proposed. A fixer of the project's own name (bun run lint:fix after
// bun run lint) is proposed.
func TestPreconditionTheCheckUndone(t *testing.T) {
	cfg := lessons.DefaultConfig()
	lint := "$ biome check --error-on-warnings .\nsrc/cart.ts format ━━━━━━━━━━━━━━━━━━━━\n  × Formatter would have printed the following content:\nChecked 42 files in 12ms. Found 1 error.\nerror: script \"lint\" exited with code 1"
	for _, c := range []struct {
		name    string
		steps   []step
		propose bool
	}{
		{"check undone", []step{run("cargo fmt --check 2>&1", 1, "Diff in /p/src/main.rs at line 3:\n-fn a(){}\n+fn a() {}"),
			run("cargo fmt 2>&1", 0, ""), run("cargo fmt --check 2>&1", 0, "")}, false},
		{"check undone after a cd", []step{run("cargo fmt --check 2>&1", 1, "Diff in /p/src/main.rs at line 3:\n-fn a(){}\n+fn a() {}"),
			run("cd /p && cargo fmt 2>&1", 0, ""), run("cargo fmt --check 2>&1", 0, "")}, false},
		{"project fixer", []step{run("bun run lint", 1, lint), run("bun run lint:fix", 0, "Fixed 1 file."), run("bun run lint", 0, "No fixes applied.")}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			writeClaude(t, dir, "/p", "s1", c.steps)
			writeClaude(t, dir, "/p", "s2", c.steps)
			scan(t, state, Options{Paths: []string{dir}})
			pre := ofKind(candidates(t, state), KindPrecondition)
			if len(pre) != 1 {
				t.Fatalf("%d precondition fixes, want 1", len(pre))
			}
			if proposed := pre[0].Confidence >= cfg.MinConfidence; proposed != c.propose || !proposed && !pre[0].Reminder(cfg) {
				t.Errorf("%q: confidence %.2f, reminder %v: want proposed %v, else said after the failure", pre[0].Summary, pre[0].Confidence, pre[0].Reminder(cfg), c.propose)
			}
		})
	}
}

// TestPreconditionStepWithoutItsOutputShaping: in two sessions a script
// fails because the project's tools are not installed ("could not
// locate"), the agent installs them, its output cut short two ways, and
// the script works. One lesson, seen in both sessions, naming the step
// as a user would type it. Before, "could not locate" was no missing
// thing, and the step kept its pipe: no lesson, then two.
func TestPreconditionStepWithoutItsOutputShaping(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	missing := "$ turbo run lint\nVolta error: Could not locate executable `turbo` in your project.\n\nPlease ensure that all project dependencies are installed with `npm install` or `yarn install`\nerror: script \"lint\" exited with code 126"
	for id, install := range map[string]string{"s1": "bun install 2>&1 | tail -5", "s2": "bun install 2>&1"} {
		writeClaude(t, dir, "/p", id, []step{
			run("bun run lint 2>&1", 126, missing),
			run(install, 0, "988 packages installed [2.42s]"),
			run("bun run lint 2>&1", 0, "Checked 14 files in 40ms. No fixes applied."),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	pre := ofKind(candidates(t, state), KindPrecondition)
	if len(pre) != 1 || len(pre[0].Sessions) != 2 {
		t.Fatalf("preconditions %v, want one seen in both sessions", summaries(pre))
	}
	if s := pre[0].Summary; !strings.HasSuffix(s, "first run `bun install`") {
		t.Errorf("summary %q: want the step without its output shaping", s)
	}
}

// TestPreconditionOnePerFailure: the same step got two failures past, in
// two sessions: a module missing, then a tool not installed. Two
// lessons, each after its own error. Before, the second merged into the
// first and kept its error trigger: it never came after the second
// error.
func TestPreconditionOnePerFailure(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	fails := map[string]string{
		"s1": "error: Cannot find package 'fast-glob' from '/p/scripts/build.ts'",
		"s2": "Volta error: Could not locate executable `turbo` in your project.\n\nPlease ensure that all project dependencies are installed",
	}
	for id, out := range fails {
		writeClaude(t, dir, "/p", id, []step{
			run("bun run build", 1, out),
			run("bun install", 0, "988 packages installed [2.42s]"),
			run("bun run build", 0, "built in 1.2s"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	pre := ofKind(candidates(t, state), KindPrecondition)
	if len(pre) != 2 {
		t.Fatalf("preconditions %v, want one per failure", summaries(pre))
	}
	for _, c := range pre {
		other := fails["s1"]
		if strings.Contains(c.Problem, "fast-glob") {
			other = fails["s2"]
		}
		if errorFires(t, c, other) {
			t.Errorf("%q fires after the other failure %q", c.Summary, other)
		}
	}
}

// TestPreconditionsOnTwoModulesAreTwo: node misses one module in a
// session and another in the next, and each time an install gets past
// it. The error class keeps the module it names, so they are two
// mistakes: neither counts the other's session, nor takes its words.
func TestPreconditionsOnTwoModulesAreTwo(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("node scripts/report.js", 1, "node:internal/modules/cjs/loader:1479\n  throw err;\n\nError: Cannot find module 'xlsx'\nRequire stack:\n- /p/scripts/report.js"),
		run("npm install xlsx", 0, "added 1 package"),
		run("node scripts/report.js", 0, "report written"),
	})
	writeClaude(t, dir, "/p", "s2", []step{
		run("node scripts/sync.js", 1, "node:internal/modules/cjs/loader:1479\n  throw err;\n\nError: Cannot find module 'playwright'\nRequire stack:\n- /p/scripts/sync.js"),
		run("npm install", 0, "added 40 packages"),
		run("node scripts/sync.js", 0, "synced"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	for _, c := range ofKind(candidates(t, state), KindPrecondition) {
		if c.Status == StatusFolded {
			continue
		}
		if len(c.Sessions) != 1 {
			t.Errorf("%s: seen in %d sessions, want 1: the other session missed another module", c.Summary, len(c.Sessions))
		}
	}
}

// TestPreconditionWritingAFileIsSaid: a test imports a module that is not
// written yet, the agent writes it, and the test passes, in two sessions.
// A file written stays in the checkout and is the task's (the code a test
// written first imports): the lesson is said after the same error, never
// proposed. An install the error names, seen in two sessions, is.
func TestPreconditionWritingAFileIsSaid(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fix      step
		want     string
		proposed bool
	}{
		{"a file written", write("/p/src/providers.ts", "export const providers = []\n"), "create /p/src/providers.ts", false},
		{"a package installed", run("npm install providers", 0, "added 1 package"), "npm install providers", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for i := range 2 {
				writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i), []step{
					run("bun test src/providers.test.ts", 1, "error: Cannot find module './providers' from '/p/src/providers.test.ts'"),
					tc.fix,
					run("bun test src/providers.test.ts", 0, "1 pass"),
				})
			}
			var c *Candidate
			for _, r := range reaching(t, dir) {
				if r.Kind == KindPrecondition && strings.Contains(r.Summary, tc.want) {
					c = &r
				}
			}
			if c == nil {
				t.Fatalf("no precondition naming %s", tc.want)
			}
			cfg := lessons.DefaultConfig()
			if got := c.Confidence >= cfg.MinConfidence; got != tc.proposed || !c.Reminder(cfg) {
				t.Errorf("proposed %v (confidence %.2f), want %v; reminder %v, want true", got, c.Confidence, tc.proposed, c.Reminder(cfg))
			}
		})
	}
}

// TestPreconditionOfTheCommandThatDoesSomething: the failing line looks
// around first (ls) and then reads a file that a later step writes. The
// lesson is about the command that failed, sed: its title and its
// command trigger name sed, not ls, which it must not come before.
func TestPreconditionOfTheCommandThatDoesSomething(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	failing := "ls -la conf && sed -n '1,20p' conf/app.toml"
	writeClaude(t, dir, "/p", "s1", []step{
		run(failing, 2, "total 0\nsed: can't read conf/app.toml: No such file or directory"),
		run("mkdir -p conf && cp app.example.toml conf/app.toml", 0, ""),
		run(failing, 0, "total 4\n[app]\nname = \"p\""),
	})
	scan(t, state, Options{Paths: []string{dir}})
	pre := ofKind(candidates(t, state), KindPrecondition)
	if len(pre) != 1 {
		t.Fatalf("%d precondition fixes, want 1", len(pre))
	}
	c := pre[0]
	if !strings.HasPrefix(c.Summary, "sed: first ") {
		t.Errorf("summary %q: want it to name sed, the command that failed", c.Summary)
	}
	fires := func(cmd string) bool { return commandFires(lessons.Trigger{Commands: c.Triggers.Commands}, cmd) }
	if !fires("sed -n '1,5p' conf/app.toml") || fires("ls -la src") {
		t.Errorf("command triggers %q: want them on sed, not on every ls", c.Triggers.Commands)
	}
}

// A formatter run as a module (python -m ruff format) rewrites the code;
// the same asked only to check (--check, --diff) rewrites nothing, so a
// check run again is no fixing step of its own failure.
func TestFixing(t *testing.T) {
	for cmd, want := range map[string]bool{
		"cd /p && python -m ruff format . 2>&1": true,
		"uv run ruff format .":                  true,
		"npx prettier --write .":                true,
		"bun run lint:fix":                      true,
		"python -m ruff format --check .":       false,
		"cargo fmt --check":                     false,
		"npx prettier --check --write src":      false,
		"python -m pytest -q":                   false,
	} {
		if got := fixing(cmd); got != want {
			t.Errorf("fixing(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestPreconditionNarrowsToTheWarning: a check that fails on warnings
// (prettier --check) under a runner that only says the script failed;
// the fixer runs and the check passes. Narrowed to its error, the lesson
// comes after the check's own warning, whatever advice another version
// words after it, and not after any failure of the script.
func TestPreconditionNarrowsToTheWarning(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	out := func(file, advice string) string {
		return "$ prettier --check .\n[warn] " + file + "\n[warn] Code style issues found in the above file. " + advice + "\nerror: script \"lint\" exited with code 1"
	}
	writeClaude(t, dir, "/p", "s1", []step{
		run("bun lint", 1, out("src/app.ts", "Forgot to run Prettier?")),
		run("bun lint:fix", 0, "src/app.ts 41ms"),
		run("bun lint", 0, "All matched files use Prettier code style!"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	pre := ofKind(candidates(t, state), KindPrecondition)
	if len(pre) != 1 {
		t.Fatalf("%d precondition fixes, want 1: %v", len(pre), summaries(candidates(t, state)))
	}
	c := pre[0]
	if !c.narrowToError() {
		t.Fatal("no error trigger")
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString(out("src/form.tsx", "Run Prettier with --write to fix.")); !ok {
		t.Errorf("error trigger %q misses the same warning worded by another version", c.Triggers.Errors[0])
	}
	if ok, _ := re.MatchString("$ eslint .\nsrc/a.ts:3:1 error 'x' is not defined no-undef\nerror: script \"lint\" exited with code 1"); ok {
		t.Errorf("error trigger %q comes after any failure of the script", c.Triggers.Errors[0])
	}
}

// TestPreconditionOnTheStageThatFailed: a chain fails in a stage after its
// first (the commit hook of `git add f && git commit`), the fixer runs,
// and the same chain goes through. The lesson is about the stage that
// failed: its trigger is that stage's command and its summary names it,
// not the chain's first. A check the fixer runs again in its fix mode is
// the stage that failed, wherever it stands.
func TestPreconditionOnTheStageThatFailed(t *testing.T) {
	hook := "bun run lint\n$ biome check --error-on-warnings .\nsrc/cart.ts format ━━━━━━━━━━━━━━━━━━━━\n  × Formatter would have printed the following content:\nhusky - pre-commit script failed (code 1)"
	diff := "Diff in /p/src/api.rs:211:\n-    let x=1;\n+    let x = 1;"
	for _, tc := range []struct {
		name, failed, fixer, out, want, notWant, head string
	}{
		{"commit hook", "git add src/cart.ts && git commit -m 'cart total'", "bun run lint:fix", hook, "git commit -m x", "git add src/x.ts", "git commit"},
		{"check first", "cargo fmt --check && cargo clippy && cargo test", "cargo fmt", diff, "cargo fmt --check", "cargo test", "cargo fmt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			writeClaude(t, dir, "/p", "s1", []step{run(tc.failed, 1, tc.out), run(tc.fixer, 0, "Fixed 1 file."), run(tc.failed, 0, "ok")})
			scan(t, state, Options{Paths: []string{dir}})
			var pre []Candidate
			for _, k := range candidates(t, state) {
				if k.Kind == KindPrecondition {
					pre = append(pre, k)
				}
			}
			if len(pre) != 1 {
				t.Fatalf("%d precondition fixes %+v, want 1", len(pre), pre)
			}
			l := ToLesson(pre[0])
			if !commandFires(l.Triggers, tc.want) || commandFires(l.Triggers, tc.notWant) {
				t.Errorf("trigger %q: fires on %q %v (want true), on %q %v (want false)", l.Triggers.Commands, tc.want, commandFires(l.Triggers, tc.want), tc.notWant, commandFires(l.Triggers, tc.notWant))
			}
			if !strings.HasPrefix(pre[0].Summary, tc.head) {
				t.Errorf("summary %q, want it about %q", pre[0].Summary, tc.head)
			}
		})
	}
}

// TestPreconditionFormatterOnTheTasksFiles: a check fails on the files a
// task changed and the agent runs the formatter on those files; the next
// session does the same on other files. The formatter is the step, not
// the files it was given: one lesson seen in two sessions, whose words
// name no file of either task.
func TestPreconditionFormatterOnTheTasksFiles(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for i, f := range []string{"src/cart.ts", "src/orders.ts"} {
		writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i+1), []step{
			run("npm run lint", 1, "> app@1.0.0 lint\n> prettier --check src\n\n[warn] "+f+"\n[warn] Code style issues found in the above file. Run Prettier with --write to fix."),
			run("npx prettier --write "+f+" 2>&1", 0, f+" 41ms"),
			run("npm run lint", 0, "All matched files use Prettier code style!"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	var pre []Candidate
	for _, k := range candidates(t, state) {
		if k.Kind == KindPrecondition {
			pre = append(pre, k)
		}
	}
	if len(pre) != 1 || len(pre[0].Sessions) != 2 {
		for _, k := range candidates(t, state) {
			t.Logf("%s %s %v", k.Kind, k.Summary, k.Sessions)
		}
		t.Fatalf("preconditions %+v, want one seen in 2 sessions", pre)
	}
	if s := pre[0].Summary; !strings.Contains(s, "`npx prettier --write`") || strings.Contains(s, "cart") || strings.Contains(s, "orders") {
		t.Errorf("summary %q, want the formatter without the task's files", s)
	}
	if pre[0].Signals.OneOff {
		t.Errorf("%q is no one-off: the formatter is the step whatever files it was given", pre[0].Summary)
	}
}

// TestPreconditionOneLessonUnderTwoWordings: the same step got past the
// same check in two sessions, whose errors were worded apart (prettier's
// "in the above file" for one file, "in 2 files" for two). That is one
// lesson: the other is folded into it, which comes after either error,
// and both sessions support it.
func TestPreconditionOneLessonUnderTwoWordings(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for i, found := range []string{"[warn] src/a.ts\n[warn] Code style issues found in the above file. Forgot to run Prettier?",
		"[warn] src/a.ts\n[warn] src/b.ts\n[warn] Code style issues found in 2 files. Forgot to run Prettier?"} {
		writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i+1), []step{
			run("bun lint", 1, "$ prettier --check .\n"+found+"\nerror: script \"lint\" exited with code 1"),
			run("bun lint:fix", 0, "src/a.ts 41ms"),
			run("bun lint", 0, "All matched files use Prettier code style!"),
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	var listed, folded []Candidate
	for _, k := range candidates(t, state) {
		switch {
		case k.Kind == KindPrecondition && k.Status == StatusNew:
			listed = append(listed, k)
		case k.Kind == KindPrecondition && k.Status == StatusFolded:
			folded = append(folded, k)
		}
	}
	if len(listed) != 1 || len(folded) != 1 {
		for _, k := range candidates(t, state) {
			t.Logf("%s %s %s %v %v", k.Kind, k.Status, k.Summary, k.Sessions, k.Triggers.Errors)
		}
		t.Fatalf("%d listed and %d folded preconditions, want one of each", len(listed), len(folded))
	}
	l := ToLesson(listed[0])
	for _, out := range []string{"[warn] Code style issues found in the above file.", "[warn] Code style issues found in 7 files."} {
		if !firesOn(l, []lessons.ToolCall{{Tool: "Bash", Command: "bun lint", Error: out}}) {
			t.Errorf("the lesson does not come after %q; errors %q", out, l.Triggers.Errors)
		}
	}
	if len(listed[0].Sessions) != 2 {
		t.Errorf("sessions %v, want both", listed[0].Sessions)
	}
	if errs := lessons.Errors(lessons.Validate(&l)); len(errs) > 0 {
		t.Errorf("the folded lesson does not validate: %v", errs)
	}
}
