package scanner

import (
	"errors"
	"testing"
)

func TestStore(t *testing.T) {
	dir, state := fixtures(t), t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	s := OpenStore(state)
	cs, err := s.List(ListOptions{})
	if err != nil || len(cs) < 3 {
		t.Fatalf("List = %d, %v", len(cs), err)
	}
	for i := 1; i < len(cs); i++ {
		if cs[i].Signals.Weak() == cs[i-1].Signals.Weak() && cs[i].Priority > cs[i-1].Priority {
			t.Errorf("List not sorted by priority: %d before %d", cs[i-1].Priority, cs[i].Priority)
		}
	}
	c, err := s.Get(cs[0].ID[:6])
	if err != nil || c.ID != cs[0].ID {
		t.Fatalf("Get(prefix) = %v, %v", c.ID, err)
	}
	if _, err := s.Get("zzzz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(unknown) = %v, want ErrNotFound", err)
	}
	if _, err := s.Get(""); err == nil {
		t.Error("Get(\"\") gave a candidate")
	}
	if err := s.Reject(cs[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkPromoted(cs[1].ID, "01JLESSON"); err != nil {
		t.Fatal(err)
	}
	left, _ := s.List(ListOptions{})
	if len(left) != len(cs)-2 {
		t.Errorf("new candidates after reject and promote = %d, want %d", len(left), len(cs)-2)
	}
	p, _ := s.Get(cs[1].ID)
	if p.Status != StatusPromoted || p.LessonID != "01JLESSON" {
		t.Errorf("promoted candidate = %s %s", p.Status, p.LessonID)
	}
	// Seeing the mistake again keeps a rejected candidate rejected.
	scan(t, state, Options{Paths: []string{dir}, Full: true})
	r, _ := s.Get(cs[0].ID)
	if r.Status != StatusRejected || r.Occurrences != 1 {
		t.Errorf("rejected candidate after a full rescan: %s, %d occurrences", r.Status, r.Occurrences)
	}
}

func TestScoreAndScope(t *testing.T) {
	w := DefaultWeights()
	c := Candidate{Kind: KindRetry, Occurrences: 3, Sessions: []string{"a", "b"}, Projects: []string{"p", "q"},
		Signals: Signals{FixConfirmed: true, UserCorrection: true, Hang: true, Causal: true}}
	w.Score(&c)
	if c.Confidence != 1 || c.Priority != 3+2+1+1+1+1 {
		t.Errorf("Score = %v, %d", c.Confidence, c.Priority)
	}
	tag := Candidate{Kind: KindTag, Occurrences: 1, Signals: Signals{SelfReported: true}, Projects: []string{"/p"}}
	w.Score(&tag)
	if tag.Confidence != 0.85 || tag.Priority != 3 {
		t.Errorf("tag Score = %v, %d", tag.Confidence, tag.Priority)
	}
	if s, p := DefaultScope(tag); s != "project" || p != "/p" {
		t.Errorf("DefaultScope(one project) = %s %s", s, p)
	}
	if s, _ := DefaultScope(c); s != "global" {
		t.Errorf("DefaultScope(two projects) = %s", s)
	}
}
