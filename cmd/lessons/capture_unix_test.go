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
			e, record := failedOnce(t)
			os.Remove(record)
			var err error
			if kind == "fifo" {
				err = syscall.Mkfifo(record, 0o600)
			} else {
				err = os.Symlink("/dev/zero", record)
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
	e, record := failedOnce(t)
	if err := os.Truncate(record, 0); err != nil {
		t.Fatal(err)
	}
	answeredQuietly(t, e)
	if _, err := os.Stat(record); err != nil {
		t.Errorf("the record being written was removed: %v", err)
	}
	noLog(t, e)
}

// A family's record is written in place once made: the success that
// answers it leaves blanks, not a removed file, and the family's next
// failures write over the same file (no new inode for a retry loop),
// each read whole however long the one before it was.
func TestCaptureRecordWrittenInPlace(t *testing.T) {
	e, record := failedOnce(t)
	held, err := os.Open(record) // an inode held open is never reused
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	sameFile := func(when string) {
		t.Helper()
		a, err1 := held.Stat()
		b, err2 := os.Lstat(record)
		if err1 != nil || err2 != nil || !os.SameFile(a, b) {
			t.Fatalf("%s: the record is another file (%v, %v)", when, err1, err2)
		}
	}
	// The same call worked: answered without a nudge, the record blanked.
	if got := nudge(t, e.runHook(t, "claude", e.succeeded("s", "npm test"))); got != "" {
		t.Errorf("the same call that worked was answered: %s", got)
	}
	sameFile("after the success")
	if data := must(os.ReadFile(record)); len(data) == 0 || strings.TrimSpace(string(data)) != "" {
		t.Errorf("the answered record holds %q, want blanks", data)
	}
	e.runHook(t, "claude", e.failed("s", "npm test", "Exit code 1\n"+strings.Repeat("a long first line of the error ", 5)))
	sameFile("after the second failure")
	e.runHook(t, "claude", e.failed("s", "npm test", "Exit code 1\nshort"))
	sameFile("after the third failure")
	got := nudge(t, e.runHook(t, "claude", e.succeeded("s", "CI=1 npm test")))
	if !strings.Contains(got, "(short)") {
		t.Errorf("the fix's nudge = %q, want the last failure's error", got)
	}
	noLog(t, e)
}

// A record whose opening brace is not there yet is being written over
// (overwriteRecord writes it last): a success that reads it then leaves
// it as it is, says nothing and logs no error.
func TestHalfWrittenCaptureRecordIsLeft(t *testing.T) {
	e, record := failedOnce(t)
	data := must(os.ReadFile(record))
	data[0] = ' '
	if err := os.WriteFile(record, data, 0o600); err != nil {
		t.Fatal(err)
	}
	answeredQuietly(t, e)
	if got := must(os.ReadFile(record)); string(got) != string(data) {
		t.Errorf("the record being written became %q", got)
	}
	noLog(t, e)
}

// A hard link the agent put at a record's name is never written
// through: neither by the family's next failure, which replaces it, nor
// by the success that answers a record, which removes it.
func TestCaptureRecordHardLinkNotWrittenThrough(t *testing.T) {
	e, record := failedOnce(t)
	plant := func(content string) string {
		t.Helper()
		target := filepath.Join(e.root, "target")
		os.Remove(target)
		if err := os.WriteFile(target, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Remove(record)
		if err := os.Link(target, record); err != nil {
			t.Skip(err)
		}
		return target
	}
	target := plant("precious\n")
	e.runHook(t, "claude", e.failed("s", "npm test", "Exit code 1\nstill broken"))
	if got := must(os.ReadFile(target)); string(got) != "precious\n" {
		t.Errorf("the failure wrote through the link: the target holds %q", got)
	}
	if data := must(os.ReadFile(record)); !strings.Contains(string(data), "still broken") {
		t.Errorf("the record holds %q", data)
	}
	live := string(must(os.ReadFile(record)))
	target = plant(live)
	e.runHook(t, "claude", e.succeeded("s", "CI=1 npm test"))
	if got := must(os.ReadFile(target)); string(got) != live {
		t.Errorf("the success wrote through the link: the target holds %q", got)
	}
}

// failedOnce is a session with one failure of npm test on record, and
// the record's path.
func failedOnce(t *testing.T) (*env, string) {
	t.Helper()
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	e.runHook(t, "claude", e.failed("s", "npm test", "Exit code 1\nbroken"))
	records, _ := filepath.Glob(filepath.Join(e.state, "sessions", engine.SessionHash("s")+".capture", "f-*"))
	if len(records) != 1 {
		t.Fatalf("records = %v", records)
	}
	return e, records[0]
}

// answeredQuietly runs the fix of npm test and wants the hook to answer
// {} and exit 0, with nothing on standard error.
func answeredQuietly(t *testing.T, e *env) {
	t.Helper()
	out, stderr, code := e.hookOnce(t, e.succeeded("s", "CI=1 npm test"), 10*time.Second)
	if code != 0 || len(stderr) > 0 || strings.TrimSpace(string(out)) != "{}" {
		t.Fatalf("exit %d, stderr %s, answer %s", code, stderr, out)
	}
}

// noLog wants the hook to have logged no error.
func noLog(t *testing.T, e *env) {
	t.Helper()
	if log, _ := os.ReadFile(filepath.Join(e.state, "hook.log")); len(log) > 0 {
		t.Errorf("hook.log = %s", log)
	}
}
