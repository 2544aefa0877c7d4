package scanner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// corpusDir holds real session logs beside the repository; tests that use
// it skip when it is absent.
const corpusDir = "../../shared/corpus"

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
	rep, err := Scan(context.Background(), Options{StateDir: state, Paths: paths, Full: true})
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
