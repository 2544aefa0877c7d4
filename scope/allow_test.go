package scope

import (
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

// TestMergeAllow: a project's allow list keeps a blocking lesson active
// (its text still comes up) but takes away its refusal there, by slug or
// by id, and only there.
func TestMergeAllow(t *testing.T) {
	f := newFixture(t)
	reset, push, rm := lesson(BuiltinDir, "B1", "reset-hard"), lesson(BuiltinDir, "B2", "force-push"), lesson(BuiltinDir, "B3", "rm-home")
	for _, r := range []*Resolved{&reset, &push, &rm} {
		r.Block, r.BlockReason = true, "refused"
	}
	f.add(BuiltinDir, reset, push, rm)
	f.loader.configs[ProjectConfig(f.project)] = lessons.Config{Allow: []string{"reset-hard", "B2"}}

	m := f.merge(f.project)
	want := map[string]bool{"reset-hard": false, "force-push": false, "rm-home": true}
	for slug, blocks := range want {
		r := find(m, slug)
		if r.Slug == "" {
			t.Fatalf("%s is not active in the project: allow must not disable it", slug)
		}
		if r.AllowBlock != blocks {
			t.Errorf("in the project %s may block = %v, want %v", slug, r.AllowBlock, blocks)
		}
	}
	for slug := range want {
		if r := find(f.merge(f.outside), slug); !r.AllowBlock {
			t.Errorf("outside the project %s may no longer block", slug)
		}
	}
}
