//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// A capture record that is a FIFO or a device is refused before it is
// read: the success answers {} at once and says why in the hook log.
func TestCaptureRecordNotARegularFile(t *testing.T) {
	for _, kind := range []string{"fifo", "devzero"} {
		t.Run(kind, func(t *testing.T) {
			e := newEnv(t)
			e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
			e.runHook(t, "claude", e.failed("s", "npm test", "Exit code 1\nbroken"))
			records, _ := filepath.Glob(filepath.Join(e.state, "sessions", engine.SessionHash("s")+".capture", "f-*"))
			if len(records) != 1 {
				t.Fatalf("records = %v", records)
			}
			os.Remove(records[0])
			var err error
			if kind == "fifo" {
				err = syscall.Mkfifo(records[0], 0o600)
			} else {
				err = os.Symlink("/dev/zero", records[0])
			}
			if err != nil {
				t.Skip(err)
			}
			start := time.Now()
			out, stderr, code := e.hookOnce(t, e.succeeded("s", "CI=1 npm test"), 10*time.Second)
			if code != 0 || len(stderr) > 0 || strings.TrimSpace(string(out)) != "{}" {
				t.Fatalf("exit %d, stderr %s, answer %s", code, stderr, out)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("the hook took %v", d)
			}
			if log, _ := os.ReadFile(filepath.Join(e.state, "hook.log")); !strings.Contains(string(log), "live capture") {
				t.Errorf("hook.log = %s", log)
			}
		})
	}
}

// A family's first failure is written straight to its record's name; a
// success whose hook opens the record before that write lands finds it
// empty and leaves it: no nudge, no error, the record kept for the fix
// that follows.
func TestEmptyCaptureRecordIsLeft(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	e.runHook(t, "claude", e.failed("s", "npm test", "Exit code 1\nbroken"))
	records, _ := filepath.Glob(filepath.Join(e.state, "sessions", engine.SessionHash("s")+".capture", "f-*"))
	if len(records) != 1 {
		t.Fatalf("records = %v", records)
	}
	if err := os.Truncate(records[0], 0); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := e.hookOnce(t, e.succeeded("s", "CI=1 npm test"), 10*time.Second)
	if code != 0 || len(stderr) > 0 || strings.TrimSpace(string(out)) != "{}" {
		t.Fatalf("exit %d, stderr %s, answer %s", code, stderr, out)
	}
	if _, err := os.Stat(records[0]); err != nil {
		t.Errorf("the record being written was removed: %v", err)
	}
	if log, _ := os.ReadFile(filepath.Join(e.state, "hook.log")); len(log) > 0 {
		t.Errorf("hook.log = %s", log)
	}
}
