package main

import (
	"os"
	"path/filepath"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scope"
)

// fixtureLessons cover every trigger kind and tool the hook fixtures in
// testdata/hooks call.
func fixtureLessons() []scope.Resolved {
	l := func(slug, summary string, t lessons.Trigger, edit func(*lessons.Lesson)) scope.Resolved {
		les := lessons.Lesson{
			ID: "01J" + slug, Slug: slug, Summary: summary,
			Problem:  "Problem of " + slug + ": it went wrong before.",
			Solution: "Solution of " + slug + ": do it the way that works.",
			Triggers: t,
		}
		if edit != nil {
			edit(&les)
		}
		return scope.Resolved{Lesson: les, Scope: lessons.ScopeGlobal, AllowBlock: true}
	}
	pack := l("terraform-apply-plan-first", "Run terraform plan and review it before terraform apply",
		lessons.Trigger{Commands: []string{`\bterraform\s+apply\b`}}, func(l *lessons.Lesson) {
			l.Block, l.BlockReason = true, "Packs may not block: this stays a reminder"
		})
	pack.Scope, pack.AllowBlock = lessons.PackScope("acme"), false
	return []scope.Resolved{
		l("git-force-push-lease", "Use --force-with-lease instead of --force when pushing",
			lessons.Trigger{Commands: []string{`git\s+push\b.*\s(-f|--force)\b`}, Unless: []string{`--force-with-lease`}},
			func(l *lessons.Lesson) {
				l.Block, l.BlockReason = true, "Refusing `{command}`: use --force-with-lease so you never overwrite others' commits."
				l.Priority = 9
			}),
		l("rm-rf-unset-variable", "rm -rf with a variable deletes from / when the variable is unset",
			lessons.Trigger{Commands: []string{`rm\s+-[a-z]*r[a-z]*f?\s+"?\$\{?\w+`}},
			func(l *lessons.Lesson) {
				l.Block, l.Decision, l.BlockReason = true, lessons.DecisionAsk, "`{command}` deletes from / if the variable is empty: use ${VAR:?} instead."
			}),
		l("pytest-hangs-on-tty", "pytest hangs waiting on a TTY prompt in CI-like shells",
			lessons.Trigger{Commands: []string{`(?i)\bpytest\b`}},
			func(l *lessons.Lesson) { l.Priority, l.Tags = 6, []string{"lang:python", "tool:pytest"} }),
		l("mock-patch-where-used", "mock.patch must target the name where it is looked up, not where it is defined",
			lessons.Trigger{Paths: []string{"*.py"}, Content: []string{`mock\.patch\(`}},
			func(l *lessons.Lesson) { l.Tags = []string{"lang:python"} }),
		l("dotenv-holds-secrets", "Files named .env hold secrets: do not print them into the transcript",
			lessons.Trigger{Tools: []string{"Read"}, Paths: []string{".env*"}}, nil),
		l("forgotten-await-fetch", "fetch() without await returns a Promise, not a Response",
			lessons.Trigger{Paths: []string{"*.{js,ts}"}, Content: []string{`(?<!await\s+)\bfetch\(`}}, nil),
		l("grep-skips-node-modules", "Searching node_modules floods the context: search the package's docs or types",
			lessons.Trigger{Tools: []string{"Grep"}, Paths: []string{"**/node_modules/**"}}, nil),
		l("glob-large-trees", "Broad globs in large trees are slow: narrow the path first",
			lessons.Trigger{Tools: []string{"Glob"}}, func(l *lessons.Lesson) { l.Priority = 3 }),
		l("notebook-pip-magic", "Use %pip, not !pip, to install into the notebook's own kernel",
			lessons.Trigger{Content: []string{`(?m)^!pip install`}}, nil),
		l("github-mcp-draft-pr", "Open pull requests as drafts until CI passes",
			lessons.Trigger{Tools: []string{"mcp__github__*"}}, nil),
		l("session-read-agents-md", "Read AGENTS.md before changing this repository",
			lessons.Trigger{SessionStart: true}, func(l *lessons.Lesson) { l.Priority = 8 }),
		l("dockerignore-build-context", "Docker sends the whole build context: add a .dockerignore",
			lessons.Trigger{Keywords: []string{"docker", "dockerignore", "build context", "image size"}},
			func(l *lessons.Lesson) { l.Tags = []string{"tool:docker"} }),
		l("python-no-module-venv", "No module named X: the project's virtualenv is not active, run it through the project's runner",
			lessons.Trigger{Errors: []string{`No module named '?[\w.]+`}}, nil),
		l("cargo-linker-cc-missing", "cargo cannot find the linker cc: install the C toolchain first",
			lessons.Trigger{Commands: []string{`\bcargo\s+(build|run|test)\b`}, Errors: []string{"linker `cc` not found"}},
			func(l *lessons.Lesson) { l.Tags = []string{"tool:cargo"} }),
		pack,
	}
}

// env is a home, cache, state and project for one hook test.
type env struct {
	root, project, state, cache string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{
		root:    root,
		project: filepath.Join(root, "proj"),
		state:   filepath.Join(root, "state", "lessons"),
		cache:   filepath.Join(root, "cache", "lessons"),
	}
	if err := os.MkdirAll(filepath.Join(e.project, ".lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *env) vars() []string {
	return []string{
		"HOME=" + e.root,
		"PATH=" + os.Getenv("PATH"),
		"XDG_CACHE_HOME=" + filepath.Join(e.root, "cache"),
		"XDG_STATE_HOME=" + filepath.Join(e.root, "state"),
		"XDG_DATA_HOME=" + filepath.Join(e.root, "data"),
		"LESSONS_CLI=" + filepath.Join(e.root, "no-lessons-cli"),
	}
}

func (e *env) dirs() scope.Dirs {
	return scope.Dirs{Home: filepath.Join(e.root, "data", "lessons"), Cache: e.cache, State: e.state}
}

// writeManifest compiles lessons into the project's manifest, stamped
// fresh.
func (e *env) writeManifest(t testing.TB, cfg lessons.Config, ls []scope.Resolved) {
	t.Helper()
	m := scope.Merged{
		Project: e.project, Config: cfg, Active: ls, Stack: []string{"lang:python"},
		Sources: []scope.Stamp{scope.StampOf(filepath.Join(e.project, ".lessons"))},
	}
	man, err := engine.Compile(m, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if w := man.Warnings(); len(w) > 0 {
		t.Fatal(w)
	}
	if err := man.WriteManifest(e.dirs().ManifestPath(e.project)); err != nil {
		t.Fatal(err)
	}
}
