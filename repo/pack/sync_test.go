package pack

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

func TestSyncFirstThenNoOp(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(3))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git"}

	r := e.one(Options{}, ref)
	if r.Err != nil {
		t.Fatalf("first sync: %v", r.Err)
	}
	head := packtest.Git(t, up.Work, "rev-parse", "HEAD")
	if !r.Activated || r.Commit != head || r.Lessons != 3 {
		t.Fatalf("first sync = activated %v commit %s lessons %d, want true %s 3", r.Activated, r.Commit, r.Lessons, head)
	}
	entry := e.lock().Entry("team")
	if entry == nil || entry.Commit != head || !strings.HasPrefix(entry.Hash, "h1:") || entry.URL != ref.URL {
		t.Fatalf("lock entry = %+v", entry)
	}
	if got := e.activeFiles("team"); len(got) != 3 {
		t.Fatalf("active lessons = %v, want 3 files", got)
	}
	lockBefore := e.lockBytes()

	r = e.one(Options{}, ref)
	if r.Err != nil || r.Activated || r.Commit != head {
		t.Fatalf("repeat sync = err %v activated %v commit %s, want a no-op at %s", r.Err, r.Activated, r.Commit, head)
	}
	if e.lockBytes() != lockBefore {
		t.Errorf("repeat sync rewrote the lock:\n%s\nwas\n%s", e.lockBytes(), lockBefore)
	}
}

func TestLockIgnoresUpstreamUntilUpdate(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(3))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git", Ref: "main"}
	first := e.one(Options{}, ref).Commit

	changed := strings.Replace(packtest.LessonYAML("lesson-0", 0), "for good", "forever", 1)
	next := up.Commit("more lessons", map[string]string{
		"lessons/lesson-0.yaml": changed,
		"lessons/lesson-2.yaml": "",
		"lessons/new-one.yaml":  packtest.LessonYAML("new-one", 9),
	})
	r := e.one(Options{}, ref)
	if r.Err != nil || r.Commit != first || r.Activated {
		t.Fatalf("sync after upstream moved = err %v commit %s activated %v, want %s kept", r.Err, r.Commit, r.Activated, first)
	}
	if got := e.lock().Entry("team").Commit; got != first {
		t.Fatalf("lock moved to %s without update", got)
	}

	r = e.one(Options{Update: true}, ref)
	if r.Err != nil || r.Commit != next || !r.Activated {
		t.Fatalf("update = err %v commit %s activated %v, want %s", r.Err, r.Commit, r.Activated, next)
	}
	want := Diff{Added: []string{"new-one"}, Changed: []string{"lesson-0"}, Removed: []string{"lesson-2"}}
	if r.Diff == nil || fmt.Sprint(*r.Diff) != fmt.Sprint(want) {
		t.Errorf("update diff = %+v, want %+v", r.Diff, want)
	}
	if got := e.lock().Entry("team").Commit; got != next {
		t.Errorf("lock after update = %s, want %s", got, next)
	}
	if got := e.activeFiles("team"); !slices.Equal(got, []string{"lesson-0.yaml", "lesson-1.yaml", "new-one.yaml"}) {
		t.Errorf("active after update = %v", got)
	}
}

func TestFrozen(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git"}

	r := e.one(Options{Frozen: true}, ref)
	if !errors.Is(r.Err, ErrFrozen) {
		t.Fatalf("frozen sync without a lock: err %v, want ErrFrozen", r.Err)
	}
	if r.Activated || e.lockBytes() != "" || len(e.activeFiles("team")) != 0 {
		t.Fatal("frozen sync without a lock activated or wrote something")
	}

	e.one(Options{}, ref)
	if r := e.one(Options{Frozen: true}, ref); r.Err != nil {
		t.Fatalf("frozen sync with an up-to-date lock: %v", r.Err)
	}

	moved := ref
	moved.Ref = "main"
	if r := e.one(Options{Frozen: true}, moved); !errors.Is(r.Err, ErrFrozen) {
		t.Errorf("frozen sync after the config's ref changed: err %v, want ErrFrozen", r.Err)
	}
	if _, err := e.syncer.Sync(t.Context(), e.configs(), Options{Frozen: true}); !errors.Is(err, ErrFrozen) {
		t.Errorf("frozen sync with a lock entry nobody subscribes to: err %v, want ErrFrozen", err)
	}
	if e.lock().Entry("team") == nil {
		t.Error("frozen sync changed the lock")
	}
}

func TestForcePushedUpstream(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git"}
	pinned := e.one(Options{}, ref).Commit

	up.Rewrite("history rewritten")
	r := e.one(Options{}, ref)
	if !errors.Is(r.Err, ErrGone) {
		t.Fatalf("sync after a force push: err %v, want ErrGone", r.Err)
	}
	if !strings.Contains(r.Err.Error(), "lessons update team") || r.Commit != pinned {
		t.Errorf("error %q should say what to run, and %s stay active (got %s)", r.Err, pinned, r.Commit)
	}
	if a, _ := ReadActive(e.active("team")); a == nil || a.Commit != pinned {
		t.Errorf("active after a force push = %+v, want %s", a, pinned)
	}

	// A teammate with the same lock and an empty cache.
	fresh := newTestEnv(t)
	fresh.dirs.Home = e.dirs.Home
	fresh.syncer.Dirs = fresh.dirs
	if r := fresh.one(Options{}, ref); !errors.Is(r.Err, ErrGone) {
		t.Errorf("first sync of a force-pushed lock: err %v, want ErrGone", r.Err)
	}
}

func TestServerDown(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base, stop := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git"}
	pinned := e.one(Options{}, ref).Commit

	// Nothing is cached for a second pack on the same dead server.
	other := newTestEnv(t)
	stop()

	r := e.one(Options{}, ref)
	if r.Err != nil || r.Offline == nil || r.Commit != pinned {
		t.Fatalf("offline sync = err %v offline %v commit %s, want the cached %s", r.Err, r.Offline, r.Commit, pinned)
	}
	if !errors.Is(r.Offline, ErrUnreachable) {
		t.Errorf("offline reason %v is not ErrUnreachable", r.Offline)
	}
	if r := e.one(Options{Frozen: true}, ref); r.Err == nil {
		t.Error("offline sync under --frozen succeeded")
	}
	if r := e.one(Options{Update: true}, ref); r.Err == nil {
		t.Error("offline update succeeded")
	}
	if r := other.one(Options{}, ref); !errors.Is(r.Err, ErrNotCached) {
		t.Errorf("offline sync with nothing cached: err %v, want ErrNotCached", r.Err)
	}
}

// TestEachStoreKeepsItsPin: the global store and a project pin the same
// pack at different commits; each keeps seeing the version it pinned,
// whichever synced last.
func TestEachStoreKeepsItsPin(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(1))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git"}
	old := e.one(Options{}, ref).Commit

	newer := up.Commit("second lesson", map[string]string{"lessons/lesson-1.yaml": packtest.LessonYAML("lesson-1", 1)})
	project := filepath.Join(t.TempDir(), ".lessons")
	res, err := e.syncer.Sync(t.Context(), []Scoped{{Path: filepath.Join(project, "config.yaml"), Config: lessons.Config{Packs: []lessons.PackRef{ref}}}}, Options{})
	if err != nil || len(res) != 1 || res[0].Err != nil || res[0].Commit != newer {
		t.Fatalf("project sync = %+v, %v; want %s active", res, err, newer)
	}
	if a, _ := ReadActive(e.dirs.PackDir("team", project)); a == nil || a.Commit != newer || a.Lessons != 2 {
		t.Errorf("project's version = %+v, want %s with 2 lessons", a, newer)
	}
	if a, _ := ReadActive(e.active("team")); a == nil || a.Commit != old || a.Lessons != 1 {
		t.Errorf("global store's version after the project's sync = %+v, want its pin %s with 1 lesson", a, old)
	}
	if got := e.activeFiles("team"); len(got) != 1 {
		t.Errorf("global store's lesson files = %v: the project's sync pruned or replaced them", got)
	}
}
