//go:build unix

package scanner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// scanWithin is scan with a deadline: a scan that blocks fails the test
// instead of hanging it.
func scanWithin(t *testing.T, state string, paths ...string) Report {
	t.Helper()
	type out struct {
		rep Report
		err error
	}
	done := make(chan out, 1)
	go func() {
		rep, err := Scan(context.Background(), Options{StateDir: state, Paths: paths, Now: later})
		done <- out{rep, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		return o.rep
	case <-time.After(20 * time.Second):
		t.Fatal("scan blocked")
		return Report{}
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
}

// TestScanSkipsPipes puts named pipes where session files, opencode
// messages and parts are read: the scan
// ends, names each, and still reads the rest.
func TestScanSkipsPipes(t *testing.T) {
	dir := fixtures(t)
	storage := filepath.Join(dir, "opencode", "storage")
	pipes := []string{
		filepath.Join(dir, "claude", "-home-dev-x", "stuck.jsonl"),
		filepath.Join(storage, "message", "ses_1", "msg_9.json"),
		filepath.Join(storage, "part", "msg_1", "prt_9.json"),
	}
	for _, p := range pipes {
		mkfifo(t, p)
	}
	rep := scanWithin(t, t.TempDir(), dir)
	errs := strings.Join(rep.Errors, "\n")
	for _, p := range pipes {
		if !strings.Contains(errs, p) || !strings.Contains(errs, "named pipe") {
			t.Errorf("the report does not name the pipe %s:\n%s", p, errs)
		}
	}
	if rep.Formats[FormatOpencodeTree] == nil || rep.Formats[FormatClaude] == nil {
		t.Errorf("the sessions beside the pipes were not read: %+v", rep.Formats)
	}
}

// TestScanFollowsSymlinkedRoot scans a log root that is a symlink, with
// a link inside it back to its own top, which must not loop.
func TestScanFollowsSymlinkedRoot(t *testing.T) {
	dir := fixtures(t)
	link := filepath.Join(t.TempDir(), "projects")
	if err := os.Symlink(filepath.Join(dir, "claude"), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "claude", "loop")); err != nil {
		t.Fatal(err)
	}
	want := scanWithin(t, t.TempDir(), filepath.Join(dir, "claude"))
	got := scanWithin(t, t.TempDir(), link)
	if got.Files == 0 || got.Files != want.Files || got.Findings != want.Findings {
		t.Errorf("through the symlink: %d files, %d findings; the directory itself: %d files, %d findings", got.Files, got.Findings, want.Files, want.Findings)
	}
}

// TestWalkListsAFileOnce: a session file reached twice (a link to it, a
// root given twice) is listed once, and a link to a directory inside a
// root is not followed.
func TestWalkListsAFileOnce(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "c.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.jsonl", filepath.Join(dir, "b.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".", filepath.Join(dir, "again")); err != nil {
		t.Fatal(err)
	}
	var got []string
	walk([]string{dir, dir}, func(p string, err error) {
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v", p, err)
		}
	}, func(f candidateFile) { got = append(got, f.path) })
	if len(got) != 1 {
		t.Errorf("walk listed %q, want a.jsonl once", got)
	}
}

// TestScanSkipsPipedWAL: an opencode database whose -wal is a named pipe
// is reported, not read.
func TestScanSkipsPipedWAL(t *testing.T) {
	dir := t.TempDir()
	copyDB(t, "v1", dir)
	mkfifo(t, filepath.Join(dir, "opencode.db-wal"))
	rep := scanWithin(t, t.TempDir(), dir)
	if errs := strings.Join(rep.Errors, "\n"); !strings.Contains(errs, "opencode.db-wal") || !strings.Contains(errs, "named pipe") {
		t.Errorf("the report does not name the piped -wal:\n%s", errs)
	}
}
