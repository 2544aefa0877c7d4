package scanner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// The labelled set (testdata/labelled, written by its gen.py) is short
// sessions in every format, each labelled with the candidates a scan
// should propose: failures fixed and not, probes, questions, corrections
// that refer to the failure and ones that do not, rejections with and
// without a reason, flag-value fixes, shell errors, #lesson blocks, and
// files written by a non-compact serializer.

const labelledDir = "../testdata/labelled"

// label is one expected candidate in one file, or (Kind "") a file that
// should give none.
type label struct {
	File     string `json:"file"`
	Scenario string `json:"scenario"`
	Kind     string `json:"kind"`
	Trigger  string `json:"trigger"`
	Fix      string `json:"fix"`
	Verdict  string `json:"verdict"` // keep, noise or none
}

// tally counts one kind's outcomes.
type tally struct{ tp, fp, fn int }

func (t tally) precision() float64 { return ratio(t.tp, t.tp+t.fp) }
func (t tally) recall() float64    { return ratio(t.tp, t.tp+t.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// scanLabelled scans a copy of the labelled set and returns its labels
// and the candidates that reach the agent (at or above minConfidence, or
// a known failure said at the failure). With
// perAgent, each agent's folder is its own history: a scenario is
// written once per format, and what a scan learns across sessions
// (support, known failures) must not count those copies as other
// sessions; without, the copies are sessions of one history.
func scanLabelled(t *testing.T, perAgent bool) (string, []label, []Candidate) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(labelledDir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var labels []label
	if err := json.Unmarshal(b, &labels); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(labelledDir)); err != nil {
		t.Fatal(err)
	}
	histories := []string{dir}
	if perAgent {
		histories = nil
		for _, agent := range []string{"claude", "codex", "gemini", "opencode"} {
			histories = append(histories, filepath.Join(dir, agent))
		}
	}
	var shown []Candidate
	for _, h := range histories {
		state := t.TempDir()
		scan(t, state, Options{Paths: []string{h}})
		for _, c := range candidates(t, state) {
			// what reaches the agent: a proposal, a known failure of two
			// sessions or more said at the failure (afterTheWork), a
			// precondition that repaired what its error named, or a retry
			// whose error printed the call that worked, said at the
			// failure (fixedOnce, Signals.Reminds)
			if c.Confidence >= lessons.DefaultConfig().MinConfidence ||
				c.Kind == KindKnown && len(c.Sessions) >= 2 && atFailure(c) ||
				(c.Kind == KindPrecondition || c.Kind == KindRetry) && atFailure(c) {
				shown = append(shown, c)
			}
		}
	}
	return dir, labels, shown
}

// matches reports whether a candidate seen in a file is the one a label
// expects: same kind (a tag and a retry of the same mistake are one), the
// failing call, and the fix in what the candidate says or excludes.
func (l label) matches(c Candidate) bool {
	if l.Kind == "" {
		return false
	}
	kindOK := c.Kind == l.Kind || l.Kind == KindTag && c.Kind == KindRetry || l.Kind == KindRetry && c.Kind == KindTag
	if !kindOK || !strings.Contains(c.Trigger, l.Trigger) {
		return false
	}
	said := c.Fixed + "\n" + c.Solution
	for _, e := range c.Examples.NoMatch {
		said += "\n" + e.Command
	}
	return strings.Contains(said, l.Fix)
}

// TestLabelledPrecisionRecall measures, per candidate kind, how many
// candidates that reach the agent (at or above minConfidence, or a known
// failure said at the failure) a team would keep (precision) and
// how many of the labelled mistakes were found (recall), counting each
// file a candidate was seen in. The floors are the measured values less a
// margin; lower them only with a reason.
func TestLabelledPrecisionRecall(t *testing.T) {
	dir, labels, shown := scanLabelled(t, true)
	byFile := map[string][]label{}
	for _, l := range labels {
		byFile[l.File] = append(byFile[l.File], l)
	}
	found := map[string]bool{} // file + label index
	kinds := map[string]*tally{}
	get := func(k string) *tally {
		if kinds[k] == nil {
			kinds[k] = &tally{}
		}
		return kinds[k]
	}
	for _, c := range shown {
		files := map[string]bool{}
		for _, p := range c.Provenance {
			rel, _ := filepath.Rel(dir, p.File)
			files[filepath.ToSlash(rel)] = true
		}
		for f := range files {
			hit := false
			for i, l := range byFile[f] {
				if l.matches(c) {
					hit = true
					if l.Verdict == "keep" {
						get(c.Kind).tp++
						found[fmt.Sprint(f, i)] = true
					} else {
						get(c.Kind).fp++
					}
				}
			}
			if !hit {
				get(c.Kind).fp++
				t.Logf("unexpected %s candidate in %s: %q (trigger %q)", c.Kind, f, c.Summary, c.Trigger)
			}
		}
	}
	for f, ls := range byFile {
		for i, l := range ls {
			if l.Verdict == "keep" && !found[fmt.Sprint(f, i)] {
				get(l.Kind).fn++
				t.Logf("missed %s in %s: %s → %s", l.Kind, f, l.Trigger, l.Fix)
			}
		}
	}
	floors := map[string]struct{ precision, recall float64 }{
		KindTag: {1, 1}, KindRetry: {0.9, 0.9}, KindCorrection: {1, 0.75}, KindRejection: {1, 1}, KindPrecondition: {1, 1}, KindKnown: {1, 1},
	}
	var all tally
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range floors {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range names {
		tl := get(k)
		all.tp, all.fp, all.fn = all.tp+tl.tp, all.fp+tl.fp, all.fn+tl.fn
		t.Logf("%-10s precision %.2f (%d/%d)  recall %.2f (%d/%d)", k, tl.precision(), tl.tp, tl.tp+tl.fp, tl.recall(), tl.tp, tl.tp+tl.fn)
		if f := floors[k]; tl.precision() < f.precision || tl.recall() < f.recall {
			t.Errorf("%s: precision %.2f, recall %.2f; floors %.2f and %.2f", k, tl.precision(), tl.recall(), f.precision, f.recall)
		}
	}
	t.Logf("%-10s precision %.2f (%d/%d)  recall %.2f (%d/%d)", "all", all.precision(), all.tp, all.tp+all.fp, all.recall(), all.tp, all.tp+all.fn)
}
