package scanner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// turns writes one Claude Code session of records (type, message
// content) in the order given, so a test can put results after several
// calls of one turn; it returns the directory holding it.
func turns(t *testing.T, cwd string, recs ...[2]any) string {
	t.Helper()
	var b strings.Builder
	for i, r := range recs {
		j, _ := json.Marshal(map[string]any{"sessionId": "s1", "cwd": cwd, "type": r[0], "uuid": fmt.Sprintf("u%d", i),
			"timestamp": fmt.Sprintf("2026-01-01T00:00:%02dZ", i), "message": map[string]any{"content": r[1]}})
		b.Write(j)
		b.WriteByte('\n')
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// toolResult is a tool_result record's content.
func toolResult(id, out string, failed bool) []any {
	r := map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}
	if failed {
		r["is_error"] = true
	}
	return []any{r}
}

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
			use := func(id, cmd string) [2]any {
				return [2]any{"assistant", []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd}}}}
			}
			failed := [2]any{"user", toolResult("t1", "Exit code 2\n"+fail, true)}
			worked := [2]any{"user", toolResult("t2", "ok: 40 passed", false)}
			recs := [][2]any{{"user", "run the tests"}, use("t1", "mise run test --lib"), use("t2", "mise run test --all"), failed, worked}
			if !tc.parallel {
				recs = [][2]any{{"user", "run the tests"}, use("t1", "mise run test --lib"), failed, use("t2", "mise run test --all"), worked}
			}
			dir := turns(t, "/p", recs...)
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
	read := func(id, p string) [2]any {
		return [2]any{"assistant", []any{map[string]any{"type": "tool_use", "id": id, "name": "Read", "input": map[string]any{"file_path": p}}}}
	}
	dir := turns(t, "/home/ann/app", [2]any{"user", "read the two skills"},
		read("t1", "/home/ann/app/skills/plans/SKILL.md"), read("t2", "/home/ann/app/skills/review/SKILL.md"),
		[2]any{"user", toolResult("t1", "File does not exist.", true)}, [2]any{"user", toolResult("t2", "# Review", false)})
	for _, c := range pathCandidates(t, dir) {
		if c.Fixed != "" {
			t.Errorf("a lesson on where the file is: %q", c.Summary)
		}
	}
}

// TestOtherTestsAreNoFix: a test run failed (cargo's own lines say so);
// the next run, with the library's tests dropped for others, passed: it
// ran other tests, which fixes nothing.
func TestOtherTestsAreNoFix(t *testing.T) {
	out := "running 23 tests\ntest layout_cache::tests::test_cache_invalidation ... FAILED\n\nfailures:\n\nerror: test failed, to rerun pass `--lib`"
	cs := scanned(t, []step{
		run("cargo test --lib", 101, out),
		run("cargo test --test '*'", 0, "test result: ok. 2 passed; 0 failed"),
	})
	for _, c := range cs {
		if c.Kind == KindRetry {
			t.Errorf("a retry: %q", c.Summary)
		}
	}
}
