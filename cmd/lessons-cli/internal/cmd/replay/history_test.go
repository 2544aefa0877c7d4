package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeLog builds a Claude Code session log, one call at a time.
type claudeLog struct {
	id, cwd string
	at      time.Time
	n       int
	b       strings.Builder
}

func newClaudeLog(id, cwd string, at time.Time) *claudeLog {
	l := &claudeLog{id: id, cwd: cwd, at: at}
	l.line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": "work on it"}})
	return l
}

func (l *claudeLog) line(rec map[string]any) {
	l.n++
	rec["sessionId"], rec["cwd"], rec["uuid"] = l.id, l.cwd, fmt.Sprintf("%s-u%d", l.id, l.n)
	rec["timestamp"] = l.at.Add(time.Duration(l.n) * time.Second).Format(time.RFC3339)
	data, _ := json.Marshal(rec)
	l.b.Write(data)
	l.b.WriteByte('\n')
}

// bash logs a Bash call and its result; fail marks the result an error
// whose text is out.
func (l *claudeLog) bash(command, out string, fail bool) {
	id := fmt.Sprintf("t%d", l.n)
	l.line(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": command}}}}})
	res := map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}
	if fail {
		res["is_error"] = true
	}
	l.line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{res}}})
}

func (l *claudeLog) write(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, l.id+".jsonl"), []byte(l.b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// learningHistory writes n sessions of one project where every session
// teaches a lesson of its own (a failed `make deployN` fixed by setting
// STAGEN) among calls that go fine, some of which earlier lessons match.
func learningHistory(t testing.TB, n int) string {
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		l := newClaudeLog(fmt.Sprintf("s%05d", i), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		l.bash("ls", "Makefile\nsrc", false)
		l.bash(fmt.Sprintf("make deploy%d", i), fmt.Sprintf("Exit code 2\nerror: STAGE%d is not set", i), true)
		l.bash(fmt.Sprintf("STAGE%d=staging make deploy%d", i, i), "deployed", false)
		for j := range 8 {
			l.bash(fmt.Sprintf("go test ./pkg%d/...", (i+j)%50), "ok", false)
		}
		l.bash(fmt.Sprintf("make deploy%d --dry-run", (i*7)%(i+1)), "would deploy", false)
		l.write(t, dir)
	}
	return dir
}
