package pack

import (
	"os"
	"path/filepath"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
	"github.com/lessons-dev/lessons/scope"
)

// The active version is named by a plain file, never a symbolic link (which
// Windows gives only to administrators), and switching versions changes
// what the manifest's freshness check stats.
func TestActivationNeedsNoSymlink(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git", Ref: "main"}
	link := e.dirs.PackLink("team", filepath.Dir(e.dirs.GlobalConfig()))
	if r := e.one(Options{}, ref); r.Err != nil {
		t.Fatal(r.Err)
	}
	fi, err := os.Lstat(link)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("pack link %s: %v, mode %v; want a regular file", link, err, fi)
	}
	stamp := scope.StampOf(link)

	up.Commit("one more", map[string]string{"lessons/new-one.yaml": packtest.LessonYAML("new-one", 9)})
	if r := e.one(Options{Update: true}, ref); r.Err != nil || !r.Activated {
		t.Fatalf("update = %+v", r)
	}
	if scope.StampOf(link) == stamp {
		t.Error("activating a new version left the link's stamp unchanged: the manifest would stay stale")
	}
	if got := e.activeFiles("team"); len(got) != 3 {
		t.Errorf("active after update = %v, want 3 files", got)
	}
}

// A cache written by lessons 0.1, whose active version is a symbolic
// link, still reads, and the next activation replaces the link by a file
// while keeping the version it pointed to for readers in flight.
func TestActivationReplacesOldSymlink(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := lessons.PackRef{Name: "team", URL: base + "team.git", Ref: "main"}
	if r := e.one(Options{}, ref); r.Err != nil {
		t.Fatal(r.Err)
	}
	link := e.dirs.PackLink("team", filepath.Dir(e.dirs.GlobalConfig()))
	old, _ := scope.ReadPackLink(link)
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(scope.PackVersionsDir, old), link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if got := e.activeFiles("team"); len(got) != 2 {
		t.Fatalf("through the old symbolic link: %v, want 2 files", got)
	}

	up.Commit("one more", map[string]string{"lessons/new-one.yaml": packtest.LessonYAML("new-one", 9)})
	if r := e.one(Options{Update: true}, ref); r.Err != nil || !r.Activated {
		t.Fatalf("update = %+v", r)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("after update the link is %v (%v), want a regular file", fi, err)
	}
	if _, err := os.Stat(filepath.Join(e.dirs.PackRoot("team"), scope.PackVersionsDir, old)); err != nil {
		t.Errorf("the version the old link named was removed while readers may use it: %v", err)
	}
	if got := e.activeFiles("team"); len(got) != 3 {
		t.Errorf("active after update = %v, want 3 files", got)
	}
}
