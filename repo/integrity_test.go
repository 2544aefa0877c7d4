package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A store damaged the way a killed go-git write left it (an empty branch
// ref, a 0-byte index, a lesson written but not committed) is reported
// by Check and repaired by Repair with its history whole.
func TestRepairDamagedStore(t *testing.T) {
	s := newStore(t)
	for i, slug := range []string{"first", "second"} {
		l := fullLesson()
		l.Slug, l.ID = slug, l.ID[:25]+string(rune('A'+i))
		if _, err := add(s, l); err != nil {
			t.Fatal(err)
		}
	}
	before := history(t, s)
	if err := os.WriteFile(filepath.Join(s.Dir, ".git", "refs", "heads", "main"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, ".git", "index"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(s.LessonsDir(), "orphan.yaml")
	data, _ := os.ReadFile(filepath.Join(s.LessonsDir(), "first.yaml"))
	data = []byte(strings.ReplaceAll(strings.ReplaceAll(string(data), "first", "orphan"), "7A\n", "7C\n"))
	if err := os.WriteFile(orphan, data, 0o644); err != nil {
		t.Fatal(err)
	}
	problems := s.Check()
	if len(problems) < 2 {
		t.Fatalf("Check() = %v, want the broken HEAD and index", problems)
	}
	did, err := s.Repair()
	if err != nil {
		t.Fatalf("Repair: %v (did %v)", err, did)
	}
	if p := s.Check(); len(p) > 0 {
		t.Errorf("after Repair, Check() = %v", p)
	}
	after := history(t, s)
	if len(after) != len(before)+1 || after[1] != before[0] || !strings.HasPrefix(after[0], recoverMessage) {
		t.Errorf("history after repair = %q, want %q under one recovery commit", after, before)
	}
	assertClean(t, s)
}
