//go:build unix

package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// within fails the test if f takes more than a few seconds: reading a
// named pipe blocks forever.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

// TestLoaderSkipsSpecialFiles puts a named pipe and a link to /dev/zero
// among a store's lessons and as its config: loading names each and
// still loads the rest, without blocking.
func TestLoaderSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"pytest-hangs-on-tty-k3x9.yaml": minimal})
	pipe := filepath.Join(dir, "pipe-lesson.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "config.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero-lesson.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	var got []scope.Resolved
	var errs []error
	within(t, "Lessons", func() {
		got, errs = Loader{}.Lessons(scope.Store{Scope: lessons.ScopeProject, Dir: dir})
	})
	if len(got) != 1 || got[0].Slug != "pytest-hangs-on-tty-k3x9" {
		t.Errorf("Lessons = %v, want the one regular lesson", got)
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want one for the pipe and one for the link to /dev/zero", errs)
	}
	for i, want := range []string{pipe + ": not a regular file (a named pipe)", zero + ": not a regular file (a character device)"} {
		if !errors.Is(errs[i], scope.ErrNotRegular) || !strings.HasPrefix(errs[i].Error(), want) {
			t.Errorf("error %d = %q, want %q…", i, errs[i], want)
		}
	}
	var err error
	within(t, "Config", func() { _, err = Loader{}.Config(filepath.Join(dir, "config.yaml")) })
	if !errors.Is(err, scope.ErrNotRegular) {
		t.Errorf("Config(a named pipe) = %v, want ErrNotRegular", err)
	}
}
