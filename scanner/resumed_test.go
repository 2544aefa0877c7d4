package scanner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResumedCopyIsOneSession: a resumed session's log repeats the calls
// before it, with their ids. A mistake and its fix copied so were seen in
// one session, not two: the lesson waits for its failure to come back as
// a lesson seen once does. The same mistake made afresh in a second
// session (its own call ids) is two.
func TestResumedCopyIsOneSession(t *testing.T) {
	steps := []step{
		run("npm test -- --runInBand", 1, "Unknown option: --runInBand"),
		run("npm test", 0, "12 passed"),
	}
	// drawn ids, as Claude Code's toolu_… are
	drawnIDs := func(s string) string {
		for _, id := range []string{"s1", "s2"} {
			s = strings.ReplaceAll(s, `"`+id+`-t`, `"toolu_01YAwyYLDiUvg5K`+id+`Q`)
		}
		return s
	}
	for _, tc := range []struct {
		name    string
		resumed bool
		want    int
	}{
		{"resumed", true, 1},
		{"afresh", false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeClaude(t, dir, "/p", "s1", steps)
			writeClaude(t, dir, "/p", "s2", steps)
			s1 := filepath.Join(dir, "s1.jsonl")
			b, err := os.ReadFile(s1)
			if err != nil {
				t.Fatal(err)
			}
			first := drawnIDs(string(b))
			second := first
			if !tc.resumed {
				b, _ = os.ReadFile(filepath.Join(dir, "s2.jsonl"))
				second = drawnIDs(string(b))
			}
			second = strings.ReplaceAll(strings.ReplaceAll(second, `"sessionId":"s1"`, `"sessionId":"s2"`), `"uuid":"s1-`, `"uuid":"s2-`)
			os.WriteFile(s1, []byte(first), 0o644)
			os.WriteFile(filepath.Join(dir, "s2.jsonl"), []byte(second), 0o644)
			state := t.TempDir()
			scan(t, state, Options{Paths: []string{dir}})
			var got []int
			for _, c := range candidates(t, state) {
				if c.Kind == KindRetry {
					got = append(got, len(c.Sessions))
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("retry lessons' sessions %v, want one lesson of %d", got, tc.want)
			}
		})
	}
}
