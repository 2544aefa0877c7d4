package scanner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParallelCallIsNoFix: two commands made in one turn, before either
// result came back (cargo test --lib beside cargo test --test '*'): the
// second, which worked, was not made in answer to the first's failure,
// so it is no fix of it. The same command made after the failure came
// back is.
func TestParallelCallIsNoFix(t *testing.T) {
	fail := "error: test failed, to rerun pass `--lib`\nerror: unexpected argument '--lib' found"
	for _, tc := range []struct {
		name     string
		parallel bool
		want     bool
	}{
		{"made alongside", true, false},
		{"made after", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			n := 0
			line := func(typ string, content any) {
				n++
				j, _ := json.Marshal(map[string]any{"sessionId": "s1", "cwd": "/p", "type": typ, "uuid": "u" + string(rune('a'+n)),
					"timestamp": "2026-01-01T00:00:0" + string(rune('0'+n)) + "Z", "message": map[string]any{"content": content}})
				b.Write(j)
				b.WriteByte('\n')
			}
			use := func(id, cmd string) map[string]any {
				return map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd}}
			}
			res := func(id, out string, failed bool) []any {
				r := map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}
				if failed {
					r["is_error"] = true
				}
				return []any{r}
			}
			line("user", "run the tests")
			if tc.parallel {
				line("assistant", []any{use("t1", "mise run test --lib")})
				line("assistant", []any{use("t2", "mise run test --all")})
				line("user", res("t1", "Exit code 2\n"+fail, true))
				line("user", res("t2", "ok: 40 passed", false))
			} else {
				line("assistant", []any{use("t1", "mise run test --lib")})
				line("user", res("t1", "Exit code 2\n"+fail, true))
				line("assistant", []any{use("t2", "mise run test --all")})
				line("user", res("t2", "ok: 40 passed", false))
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			state := t.TempDir()
			scan(t, state, Options{Paths: []string{dir}})
			got := false
			for _, c := range candidates(t, state) {
				got = got || c.Kind == KindRetry
			}
			if got != tc.want {
				t.Errorf("a retry %v, want %v: %v", got, tc.want, summaries(candidates(t, state)))
			}
		})
	}
}

// TestParallelReadIsNotWhereItIs: two files read in one turn, before
// either result came back; one was missing. The other, of the same name
// elsewhere, was not read in answer to the failure: it says nothing of
// where the missing file is.
func TestParallelReadIsNotWhereItIs(t *testing.T) {
	var b strings.Builder
	n := 0
	line := func(typ string, content any) {
		n++
		j, _ := json.Marshal(map[string]any{"sessionId": "s1", "cwd": "/home/ann/app", "type": typ, "uuid": "u" + string(rune('a'+n)),
			"timestamp": "2026-01-01T00:00:0" + string(rune('0'+n)) + "Z", "message": map[string]any{"content": content}})
		b.Write(j)
		b.WriteByte('\n')
	}
	read := func(id, p string) map[string]any {
		return map[string]any{"type": "tool_use", "id": id, "name": "Read", "input": map[string]any{"file_path": p}}
	}
	line("user", "read the two skills")
	line("assistant", []any{read("t1", "/home/ann/app/skills/plans/SKILL.md")})
	line("assistant", []any{read("t2", "/home/ann/app/skills/review/SKILL.md")})
	line("user", []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": "File does not exist.", "is_error": true}})
	line("user", []any{map[string]any{"type": "tool_result", "tool_use_id": "t2", "content": "# Review"}})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range pathCandidates(t, dir) {
		if c.Fixed != "" {
			t.Errorf("a lesson on where the file is: %q", c.Summary)
		}
	}
}
