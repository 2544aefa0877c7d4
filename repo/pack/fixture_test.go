package pack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// lessonID is a valid, deterministic ULID for fixture n.
func lessonID(n int) string { return fmt.Sprintf("01HX%022d", n) }

// lessonYAML is a valid lesson file whose trigger is the command "cmdN".
func lessonYAML(slug string, n int) string {
	return fmt.Sprintf(`id: %s
slug: %s
summary: Lesson %s says something useful
problem: Running cmd%d without the flag hangs the agent's shell for good.
solution: Pass --flag to cmd%d, or run it under timeout so it ends.
triggers:
  commands: ['\bcmd%d\b(?!.*--flag)']
examples:
  match: [cmd%d run]
  noMatch: [cmd%d run --flag]
`, lessonID(n), slug, slug, n, n, n, n, n)
}

// packFiles is a pack with n lessons named lesson-0 … lesson-(n-1).
func packFiles(n int) map[string]string {
	files := map[string]string{"pack.yaml": "name: team\ndescription: fixture\n"}
	for i := range n {
		slug := fmt.Sprintf("lesson-%d", i)
		files["lessons/"+slug+".yaml"] = lessonYAML(slug, i)
	}
	return files
}

// testEnv is a machine with a global config subscribing to packs.
type testEnv struct {
	t      testing.TB
	dirs   scope.Dirs
	syncer *Syncer
	env    map[string]string
}

func newTestEnv(t testing.TB) *testEnv {
	base := t.TempDir()
	e := &testEnv{t: t, env: map[string]string{}}
	e.dirs = scope.Dirs{Home: filepath.Join(base, "home"), Cache: filepath.Join(base, "cache"), State: filepath.Join(base, "state")}
	e.syncer = &Syncer{Dirs: e.dirs, Creds: Credentials{Getenv: func(k string) string { return e.env[k] }, Home: base}}
	return e
}

func (e *testEnv) configs(packs ...lessons.PackRef) []Scoped {
	return []Scoped{{Path: e.dirs.GlobalConfig(), Config: lessons.Config{Packs: packs}}}
}

// sync runs a sync and fails the test on a lock file error.
func (e *testEnv) sync(opts Options, packs ...lessons.PackRef) []Result {
	e.t.Helper()
	res, err := e.syncer.Sync(context.Background(), e.configs(packs...), opts)
	if err != nil {
		e.t.Fatalf("Sync: %v", err)
	}
	return res
}

// one runs a sync of a single pack and returns its result.
func (e *testEnv) one(opts Options, p lessons.PackRef) Result {
	e.t.Helper()
	res := e.sync(opts, p)
	if len(res) != 1 {
		e.t.Fatalf("Sync returned %d results, want 1", len(res))
	}
	return res[0]
}

func (e *testEnv) lock() *Lock {
	e.t.Helper()
	l, err := ReadLock(LockPath(e.dirs.GlobalConfig()))
	if err != nil {
		e.t.Fatal(err)
	}
	return l
}

func (e *testEnv) lockBytes() string {
	data, _ := os.ReadFile(LockPath(e.dirs.GlobalConfig()))
	return string(data)
}

// activeSlugs lists the lesson files of the active version of pack name.
func (e *testEnv) activeFiles(name string) []string {
	entries, _ := os.ReadDir(filepath.Join(e.dirs.PackDir(name), LessonsDir))
	var out []string
	for _, en := range entries {
		out = append(out, en.Name())
	}
	return out
}
