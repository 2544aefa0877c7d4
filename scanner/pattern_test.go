package scanner

import (
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

func TestFixPatterns(t *testing.T) {
	tests := []struct {
		failing, fixed, change string
	}{
		{"pytest tests/", "pytest -p no:cacheprovider tests/", "add -p no:cacheprovider"},
		{"cd /repo && npm install", "cd /repo && pnpm install", "use pnpm instead of npm"},
		{"python manage.py test", "python3 manage.py test", "use python3 instead of python"},
		{"git -C /x push --force origin main", "git -C /x push --force-with-lease origin main", "add --force-with-lease, drop --force"},
		{"go test -race ./...", "go test ./...", "drop -race"},
		{"pytest", "(source .venv/bin/activate && pytest)", "run `source .venv/bin/activate` first"},
		{"git commit -m 'a (b)' 2>&1", "SKIP=lint git commit -m 'a (b)' 2>&1", "add SKIP=lint"},
	}
	for _, tt := range tests {
		cmds, unless, change, ok := fixPatterns(tt.failing, tt.fixed, "")
		if !ok || change != tt.change {
			t.Errorf("fixPatterns(%q, %q) = %q, %v; want %q", tt.failing, tt.fixed, change, ok, tt.change)
			continue
		}
		for _, p := range append(slices.Clone(cmds), unless...) {
			if err := lessons.ProbeBacktracking(p); err != nil {
				t.Errorf("pattern %q: %v", p, err)
			}
		}
	}
	if _, _, _, ok := fixPatterns("make test", "make test", ""); ok {
		t.Error("an identical retry gave a trigger")
	}
}

// TestCommandPatternOfAQuotedProgram: a program run by a quoted path,
// with blanks in it, as Windows installs them, is the program the trigger
// names, with or without its subcommand; another program of a name that
// ends the same is not.
func TestCommandPatternOfAQuotedProgram(t *testing.T) {
	msbuild := lessons.Trigger{Commands: []string{commandPattern(`"/c/Program Files/MSBuild/Bin/MSBuild.exe" a.sln`)}}
	for _, cmd := range []string{
		`"/c/Program Files/MSBuild/Bin/MSBuild.exe" a.sln //p:Configuration=Release`,
		`cd "C:/src/app" && "/c/Program Files (x86)/Microsoft Visual Studio/2022/BuildTools/MSBuild/Current/Bin/MSBuild.exe" b.sln`,
		`MSBuild.exe a.sln`,
		`'MSBuild.exe' a.sln`,
	} {
		if !commandFires(msbuild, cmd) {
			t.Errorf("trigger %q misses %s", msbuild.Commands, cmd)
		}
	}
	if commandFires(msbuild, `"/c/tools/NotMSBuild.exe" a.sln`) {
		t.Errorf("trigger %q fires on another program", msbuild.Commands)
	}
	gradle := lessons.Trigger{Commands: []string{headPattern("gradlew", "build")}}
	if !commandFires(gradle, `"./gradlew" build`) || commandFires(gradle, `"./gradlew" test`) {
		t.Errorf("trigger %q: want it on a quoted gradlew build only", gradle.Commands)
	}
	if err := lessons.ProbeBacktracking(msbuild.Commands[0]); err != nil {
		t.Errorf("pattern %q: %v", msbuild.Commands[0], err)
	}
}

// TestDropKeysOnTheOptionTheErrorNames: a retry that dropped two options
// keys its lesson on the one the error refused, not on the first: the
// other is fine on its own. An option the fix's own pipeline passes to
// another command cannot tell the two calls apart, and gives no lesson.
func TestDropKeysOnTheOptionTheErrorNames(t *testing.T) {
	cmds, _, _, ok := fixPatterns("deploy.sh run --verbose --color=never", "deploy.sh run",
		"error: unexpected argument '--color' found")
	if !ok {
		t.Fatal("no trigger")
	}
	trig := lessons.Trigger{Commands: cmds}
	if !commandFires(trig, "deploy.sh run --color=never") || commandFires(trig, "deploy.sh run --verbose") {
		t.Errorf("trigger %q: want it on --color=never, not on --verbose alone", cmds)
	}
	if _, _, change, ok := fixPatterns("Get-Content a.rs -TotalCount 400 -Skip 400", "Get-Content a.rs | Select-Object -Skip 400 -First 200",
		"Get-Content : A parameter cannot be found that matches parameter name 'Skip'."); ok {
		t.Errorf("a lesson %q keyed on an option the fix passes on: want none", change)
	}
}

func TestCommandHead(t *testing.T) {
	tests := []struct{ cmd, exe, sub string }{
		{"git -C /repo status", "git", "status"},
		{"FOO=1 sudo -E npm run build", "npm", "run"},
		{"timeout 10 pytest -x", "pytest", ""},
		{"rm -rf build", "rm", ""},
		{"/usr/local/bin/cargo build --release", "cargo", "build"},
		{"# The install is stuck: try another way\npip install --no-cache-dir torch", "pip", "install"},
		{`\git push origin main`, "git", "push"},
	}
	for _, tt := range tests {
		exe, sub := commandHead(segments(tt.cmd)[0])
		if exe != tt.exe || sub != tt.sub {
			t.Errorf("commandHead(%q) = %q %q, want %q %q", tt.cmd, exe, sub, tt.exe, tt.sub)
		}
	}
	if got := segments("ls 2>&1 | head -5"); len(got) != 2 || got[0][1] != "2>&1" {
		t.Errorf("segments kept the redirection apart: %q", got)
	}
	if got := segments("gh api repos/o/r/pulls/1/comments \\\n  -f body=x \\\n  -f path=y"); len(got) != 1 || got[0][0] != "gh" || got[0][3] != "-f" {
		t.Errorf("segments split a continued line into commands: %q", got)
	}
	if got := segments("cat > f <<'EOF'\nrm -rf /\nEOF\nmake"); len(got) != 2 || got[1][0] != "make" {
		t.Errorf("segments read a here-document as commands: %q", got)
	}
	// a backslash keeps a double quote inside double quotes: the remote
	// command is one word, as the shell passes it to ssh
	if got := segments(`ssh box "sqlite3 a.db \"SELECT 1;\"" && make`); len(got) != 2 || len(got[0]) != 3 || got[0][2] != `sqlite3 a.db "SELECT 1;"` {
		t.Errorf("segments split an escaped quote's word: %q", got)
	}
}

func TestFixWorthy(t *testing.T) {
	tests := []struct {
		failing, fixed, err string
		want                bool
	}{
		{"pip install x", "pip install --user x", "error: externally-managed-environment", true},
		{"go test -run TestA ./p", "go test -run TestB ./p", "--- FAIL: TestA", false},
		{"gh auth status", "gh auth status --help", "not logged in", false},
		{"git gc --dry-run", "git count-objects -v", "error: unknown option `dry-run'", false},
		{"ruff check a.py", "ruff check /abs/a.py", "No such file or directory", false},
		// checking, then applying what the check found, is how the tool
		// is used: no lesson
		{"prettier --check f", "prettier --write f", "[warn] Code style issues found. Run Prettier with --write to fix.", false},
		{"sqlite3 a.db '.schema users'", `sqlite3 a.db "SELECT sql FROM sqlite_master WHERE name='users'"`, `Error: unknown command or invalid arguments:  "schema"`, true},
		{"pytest -q", "uv run pytest -q", "bash: pytest: command not found", true},
		{"git push", "git push -u origin f", "fatal: no upstream branch\nuse\n\n    git push --set-upstream origin f", true},
		{"curl https://x.test/a?b=1", "curl 'https://x.test/a?b=1'", "zsh:1: no matches found: https://x.test/a?b=1", true},
		{"go test ./... | grep -E '--- FAIL'", "go test ./... | grep 'FAIL'", "grep: unrecognized option '--- FAIL'", true},
		{"ssh-add -l", "SSH_AUTH_SOCK=/tmp/s ssh-add -l", "The agent has no identities.", true},
		// a one-letter flag the output names as a word, not a bare --
		{"git add .planning/a.md", "git add -f .planning/a.md",
			"The following paths are ignored by one of your .gitignore files:\n.planning\nhint: Use -f if you really want to add them.", true},
		{"cargo test", "cargo test -- --test-threads=1", "thread 'cfg::env' panicked at src/cfg.rs:40:9:\n -- \nfailures:\n    cfg::env", false},
		// a step run first that the error asked for
		{"git pull --rebase origin main", "git stash && git pull --rebase origin main && git stash pop",
			"error: cannot pull with rebase: You have unstaged changes.\nerror: Please commit or stash them.", true},
		// a path written from $HOME the error did not find, put right
		{`node "$HOME/.claude/gsd/bin/tool.cjs" init 14`, `node "$HOME/.claude-work/gsd/bin/tool.cjs" init 14`,
			"Error: Cannot find module '/home/u/.claude/gsd/bin/tool.cjs'", true},
		// another file to work on is another job
		{`node "$HOME/.claude/gsd/bin/tool.cjs" init 14`, `node "$HOME/.claude/gsd/bin/other.cjs" init 14`,
			"Error: Cannot find module '/home/u/.claude/gsd/bin/tool.cjs'", false},
		// a step the error did not name: the same line run again after
		// another command is no fix of it
		{"git pull --rebase origin main", "git fetch && git pull --rebase origin main",
			"error: cannot pull with rebase: You have unstaged changes.\nerror: Please commit or stash them.", false},
	}
	for _, tt := range tests {
		if got := fixWorthy(tt.failing, tt.fixed, &Result{Output: tt.err}); got != tt.want {
			t.Errorf("fixWorthy(%q, %q) = %v, want %v", tt.failing, tt.fixed, got, tt.want)
		}
	}
}

// A fix that dropped an option the runner did not take, with the -- that
// passed it, is keyed on the option: every call that passes its runner
// an option holds a --.
func TestDroppedOptionEndIsNoKey(t *testing.T) {
	cmds, unless, change, ok := fixPatterns("npm test -- --runInBand", "npm test", "")
	if !ok || change != "drop -- --runInBand" {
		t.Fatalf("fixPatterns = %q, %v", change, ok)
	}
	tr := lessons.Trigger{Commands: cmds, Unless: unless}
	if !commandFires(tr, "npm test -- --runInBand src/a.test.ts") {
		t.Error("the lesson does not fire on the mistake again")
	}
	if commandFires(tr, "npm test -- --run src/a.test.ts") {
		t.Error("the lesson fires on a call that passes its runner another option")
	}
}

// An option a fix added with a value is shown with a placeholder for the
// value, which is the task's (a branch, a file), and the lesson does not
// fire when the option comes with another value; a value the error names
// is the fix's own, shown as it is.
func TestTaskValuesArePlaceholders(t *testing.T) {
	for _, tc := range []struct {
		failing, fixed, errText, change, other string
	}{
		{"gh run list --pr 12 --json status", "gh run list --branch feature/next --json status", "unknown flag: --pr",
			"add --branch BRANCH, drop --pr 12", "gh run list --pr 16 --branch release/2 --json status"},
		{"tool run --pr 1 --json", "tool run --b feat/x --json", "unknown flag: --pr", "add --b B, drop --pr 1", ""},
		// operands after a bare -- are no option's value
		{"git show --no-stat HEAD", `git show HEAD --format="" -- cmd/a.go`, "fatal: unrecognized argument: --no-stat", "add --format= -- cmd/a.go, drop --no-stat", ""},
		{"git push", "git push --set-upstream origin feat", "fatal: The current branch feat has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feat",
			"add --set-upstream origin feat", ""},
	} {
		cmds, unless, change, ok := fixPatterns(tc.failing, tc.fixed, tc.errText)
		if !ok || change != tc.change {
			t.Errorf("fixPatterns(%q, %q) = %q, %v; want %q", tc.failing, tc.fixed, change, ok, tc.change)
			continue
		}
		if tc.other != "" && commandFires(lessons.Trigger{Commands: cmds, Unless: unless}, tc.other) {
			t.Errorf("%s: fires on %q, which names the option with another value", change, tc.other)
		}
	}
}

// retryLearnedTwice is the one retry lesson of two sessions in which
// failing failed with fail and fixed worked.
func retryLearnedTwice(t *testing.T, failing, fail, fixed string) Candidate {
	t.Helper()
	var cs []Candidate
	for _, c := range scanned(t,
		[]step{run(failing, 1, fail), run(fixed, 0, "done")},
		[]step{run(failing, 1, fail), run(fixed, 0, "done")},
	) {
		if c.Kind == KindRetry {
			cs = append(cs, c)
		}
	}
	if len(cs) != 1 {
		t.Fatalf("%d retry lessons, want 1: %+v", len(cs), cs)
	}
	return cs[0]
}

// TestWindowsPathInAFix: PowerShell reads docs\SYSTEM_STATE.md as a path,
// not as an escaped S: the lesson names the path as the agent typed it,
// and its trigger fires on the failing call, not on the fix.
func TestWindowsPathInAFix(t *testing.T) {
	failing, fixed := `Get-Content -Path SYSTEM_STATE.md`, `Get-Content -Path docs\SYSTEM_STATE.md`
	c := retryLearnedTwice(t, failing, "Get-Content : Cannot find path 'G:\\w\\SYSTEM_STATE.md' because it does not exist.", fixed)
	if !strings.Contains(c.Summary, `docs\SYSTEM_STATE.md`) {
		t.Errorf("summary %q does not name the path as typed", c.Summary)
	}
	if !commandFires(c.Triggers, failing) || commandFires(c.Triggers, fixed) {
		t.Errorf("trigger %q: want it on %q only", c.Triggers.Commands, failing)
	}
}

// TestLessonQuotesACommandOnOneLine: a fix that ran a script from a
// heredoc is quoted by its first line, not with the script's body.
func TestLessonQuotesACommandOnOneLine(t *testing.T) {
	c := retryLearnedTwice(t, "python - <<'EOF'\nimport sys\nprint(sys.version)\nEOF", "zsh:1: command not found: python",
		"python3 - <<'EOF'\nimport sys\nprint(sys.version)\nEOF")
	if strings.Contains(c.Solution, "print(sys.version)") || !strings.Contains(c.Solution, "`python3 - <<'EOF' …`") {
		t.Errorf("solution %q: want the fix quoted by its first line", c.Solution)
	}
}
