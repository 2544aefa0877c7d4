package pack

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

// syncWithin runs one sync and fails the test if it is still running
// after limit.
func syncWithin(t *testing.T, e *testEnv, ref lessons.PackRef, limit time.Duration) (Result, time.Duration) {
	t.Helper()
	done := make(chan Result, 1)
	start := time.Now()
	go func() { done <- e.one(Options{}, ref) }()
	select {
	case r := <-done:
		return r, time.Since(start)
	case <-time.After(limit):
		t.Fatalf("sync from %s still running after %v", ref.URL, limit)
		return Result{}, 0
	}
}

func TestSyncFromTricklingServerEndsAtTheDeadline(t *testing.T) {
	h := packtest.StartHostile(t, 1<<30, 1, 20*time.Millisecond) // 50 bytes a second
	e := newTestEnv(t)
	e.syncer.Timeout = time.Second
	r, took := syncWithin(t, e, lessons.PackRef{Name: "slow", URL: h.URL}, 30*time.Second)
	if r.Err == nil || took > 5*time.Second {
		t.Fatalf("sync from a trickling server: err %v after %v, want a failure after about 1s", r.Err, took)
	}
	t.Logf("sync failed after %v: %v", took, r.Err)
	if !strings.Contains(r.Err.Error(), "networkTimeoutSeconds") {
		t.Errorf("the error does not say which deadline passed: %v", r.Err)
	}
	if h.Sent() == 0 {
		t.Error("the server sent nothing: the test did not reach the fetch")
	}
}

func TestHugePackIsCutOffWhileDownloading(t *testing.T) {
	const limit = 4 << 20
	h := packtest.StartHostile(t, 512<<20, 64<<10, 0)
	e := newTestEnv(t)
	e.syncer.MaxDownload = limit
	r, took := syncWithin(t, e, lessons.PackRef{Name: "huge", URL: h.URL}, 60*time.Second)
	if !errors.Is(r.Err, ErrTooBig) {
		t.Fatalf("sync of a 512 MiB pack: err %v after %v, want ErrTooBig", r.Err, took)
	}
	time.Sleep(100 * time.Millisecond) // let the server notice the closed connection
	t.Logf("sync failed after %v, the server sent %d KiB: %v", took, h.Sent()>>10, r.Err)
	if sent := h.Sent(); sent > 8*limit {
		t.Errorf("the server sent %d MiB before the client gave up, for a cap of %d MiB", sent>>20, limit>>20)
	}
	var cached int64
	filepath.WalkDir(e.dirs.Cache, func(path string, d fs.DirEntry, err error) error {
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			cached += info.Size()
		}
		return nil
	})
	if cached > limit/4 {
		t.Errorf("the aborted download left %d bytes in the cache", cached)
	}
}

func TestSubmitToTricklingServerEndsAtTheDeadline(t *testing.T) {
	h := packtest.StartHostile(t, 1<<30, 1, 20*time.Millisecond)
	e := newTestEnv(t)
	e.syncer.Timeout = time.Second
	ref := Subscription{PackRef: lessons.PackRef{Name: "slow", URL: h.URL}}
	sub := Submission{Slug: "from-me", File: []byte(packtest.LessonYAML("from-me", 5)),
		Author: object.Signature{Name: "Ada", Email: "ada@example.com"}}
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := e.syncer.Submit(t.Context(), ref, sub)
		done <- err
	}()
	select {
	case err := <-done:
		if took := time.Since(start); err == nil || took > 5*time.Second || !strings.Contains(err.Error(), "networkTimeoutSeconds") {
			t.Errorf("submit to a trickling server: err %v after %v, want the deadline after about 1s", err, took)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("submit to a trickling server still running after 30s")
	}
}
