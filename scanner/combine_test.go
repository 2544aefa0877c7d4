package scanner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// sessionCandidates reads one labelled session and builds its candidates.
func sessionCandidates(t *testing.T, file string) []Candidate {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(labelledDir, file))
	if err != nil {
		t.Fatal(err)
	}
	a := newAnalyzer()
	for i, line := range strings.Split(string(b), "\n") {
		claudeLine([]byte(line), i+1, a)
	}
	a.flush()
	var cs []Candidate
	for _, f := range a.findings {
		if c, ok := build(f, a.sess, file, "claude", later()); ok {
			cs = append(cs, c)
		}
	}
	return cs
}

// wantTagWords checks that a record of the npm test mistake says what the
// agent's #lesson block said, and keeps the retry's evidence.
func wantTagWords(t *testing.T, c *Candidate) {
	t.Helper()
	if c.Kind != KindTag || !strings.Contains(c.Problem, "watch mode") || !strings.Contains(c.Solution, "CI=true npm test -- --watchAll=false") {
		t.Errorf("merged record: kind %s, summary %q, problem %q, solution %q; want the #lesson block's words", c.Kind, c.Summary, c.Problem, c.Solution)
	}
	if !c.Signals.FixConfirmed || !c.Signals.SelfReported {
		t.Errorf("merged record lost evidence: signals %+v", c.Signals)
	}
}

// TestTagWordsWinInLearner: replay --learn folds a session's #lesson block
// and the retry of the same failure into one candidate with the agent's
// words, whichever came first.
func TestTagWordsWinInLearner(t *testing.T) {
	cs := sessionCandidates(t, "claude/tag-and-retry.jsonl")
	if len(cs) != 2 {
		t.Fatalf("want a retry and a tag, got %d candidates", len(cs))
	}
	l := NewLearner(DefaultWeights())
	l.Add(cs)
	if a, b := l.Resolve(cs[0].ID), l.Resolve(cs[1].ID); a != b {
		t.Fatalf("Learner holds the retry as %s and the tag as %s, want one candidate", a, b)
	}
	got, _ := l.Candidate(l.Resolve(cs[0].ID))
	wantTagWords(t, &got)
}

// TestTagWordsWinOverDuplicate: when the retry repeats an active lesson,
// the record that collects its evidence still takes the agent's words.
func TestTagWordsWinOverDuplicate(t *testing.T) {
	cs := sessionCandidates(t, "claude/tag-and-retry.jsonl")
	known := ToLesson(cs[0])
	known.ID = "npm-test-watch"
	dir := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(labelledDir, "claude/tag-and-retry.jsonl"))
	if err := os.WriteFile(filepath.Join(dir, "s.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}, Known: func() []lessons.Lesson { return []lessons.Lesson{known} }})
	all := candidates(t, state)
	if len(all) != 1 || all[0].Status != StatusDuplicate {
		t.Fatalf("want one duplicate record, got %d", len(all))
	}
	wantTagWords(t, &all[0])
}
