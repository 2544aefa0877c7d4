package scanner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// corpusDir holds real session logs beside the repository; tests that use
// it skip when it is absent.
const corpusDir = "../../shared/corpus"

// finished is the IdleAfter for corpus scans: every corpus session has
// ended, however recently its file was copied, so none is left pending.
const finished = time.Nanosecond

func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no corpus at", corpusDir)
	}
	state := os.Getenv("LESSONS_CORPUS_STATE")
	if state == "" {
		state = t.TempDir()
	}
	var paths []string
	for _, d := range []string{"claude", "codex", "gemini", "opencode"} {
		paths = append(paths, filepath.Join(corpusDir, d))
	}
	rep, err := Scan(context.Background(), Options{StateDir: state, Paths: paths, Full: true, IdleAfter: finished})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	t.Logf("%s", b)
	cands, err := OpenStore(state).List(ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, c := range cands {
		kinds[c.Kind]++
	}
	t.Logf("candidates: %d %v", len(cands), kinds)
	if rep.Skipped.UnreadableFiles > 0 {
		t.Errorf("unreadable files: %v", rep.Errors)
	}
}

// recorder keeps the rejections a parser reports.
type recorder struct {
	*analyzer
	reasons []Event
}

func (r *recorder) event(e Event) {
	_, toolError := r.toolError(e)
	if rec := r.calls[e.CallID]; e.Kind == Rejection && e.Text != "" && !toolError && rec != nil && !rec.call.Asks {
		r.reasons = append(r.reasons, e)
	}
	r.analyzer.event(e)
}

// TestCorpusRejections checks that every rejection with a stated reason in
// the corpus became a candidate (a refused question or plan is answered,
// not rejected, and a tool's own error is no rejection).
func TestCorpusRejections(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no corpus at", corpusDir)
	}
	state := t.TempDir()
	dir := filepath.Join(corpusDir, "claude")
	if _, err := Scan(context.Background(), Options{StateDir: state, Paths: []string{dir}, Full: true, IdleAfter: finished}); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, c := range candidates(t, state) {
		for _, p := range c.Provenance {
			keys[p.Key] = true
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	total := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := &recorder{analyzer: newAnalyzer()}
		for i, line := range strings.Split(string(b), "\n") {
			claudeLine([]byte(line), i+1, r)
		}
		for _, e := range r.reasons {
			total++
			if !keys[KindRejection+":"+recordKey(e.UID, r.sess.ID, f, e.Line)] {
				t.Errorf("%s:%d: rejection %q is not a candidate", filepath.Base(f), e.Line, e.Text)
			}
		}
	}
	t.Logf("%d rejections with a reason, all candidates", total)
}
