package pack

import (
	"fmt"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

// BenchmarkSyncUpToDate syncs 5 packs that are already at their locked
// commit, over git:// on loopback: one ref listing per pack.
func BenchmarkSyncUpToDate(b *testing.B) {
	packtest.NeedGit(b)
	root := b.TempDir()
	var refs []lessons.PackRef
	for i := range 5 {
		name := fmt.Sprintf("pack-%d", i)
		packtest.NewUpstream(b, root, name, packtest.PackFiles(100))
		refs = append(refs, lessons.PackRef{Name: name})
	}
	base, _ := packtest.StartDaemon(b, root)
	for i := range refs {
		refs[i].URL = base + refs[i].Name + ".git"
	}
	e := newTestEnv(b)
	for _, r := range e.sync(Options{}, refs...) {
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
	for b.Loop() {
		for _, r := range e.sync(Options{}, refs...) {
			if r.Err != nil || r.Activated {
				b.Fatalf("up-to-date sync: err %v activated %v", r.Err, r.Activated)
			}
		}
	}
}

// BenchmarkFirstSync1000 clones, validates and activates a pack of 1,000
// lessons into an empty cache, over git:// on loopback.
func BenchmarkFirstSync1000(b *testing.B) {
	packtest.NeedGit(b)
	root := b.TempDir()
	packtest.NewUpstream(b, root, "big", packtest.PackFiles(1000))
	base, _ := packtest.StartDaemon(b, root)
	ref := lessons.PackRef{Name: "big", URL: base + "big.git"}
	for b.Loop() {
		b.StopTimer()
		e := newTestEnv(b)
		b.StartTimer()
		if r := e.one(Options{}, ref); r.Err != nil || r.Lessons != 1000 {
			b.Fatalf("first sync: err %v, %d lessons", r.Err, r.Lessons)
		}
	}
}
