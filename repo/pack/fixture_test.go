package pack

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

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

// active is where the global store's version of pack name is active.
func (e *testEnv) active(name string) string {
	return e.dirs.PackDir(name, filepath.Dir(e.dirs.GlobalConfig()))
}

// activeFiles lists the lesson files of the active version of pack name.
func (e *testEnv) activeFiles(name string) []string {
	entries, _ := os.ReadDir(filepath.Join(e.active(name), LessonsDir))
	var out []string
	for _, en := range entries {
		out = append(out, en.Name())
	}
	return out
}
