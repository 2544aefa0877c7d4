package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeLog builds one Claude Code session's log, record by record, for
// the end-to-end tests that scan or replay it.
type claudeLog struct {
	id, cwd string
	hour    int // the hour of its records' timestamps
	n       int
	b       strings.Builder
}

// line adds a record of typ ("user" or "assistant") with content.
func (l *claudeLog) line(typ string, content any) {
	l.n++
	rec := map[string]any{"sessionId": l.id, "cwd": l.cwd, "type": typ, "uuid": fmt.Sprintf("%s-%d", l.id, l.n),
		"timestamp": fmt.Sprintf("2026-01-01T%02d:00:%02dZ", l.hour, l.n), "message": map[string]any{"role": typ, "content": content}}
	data, _ := json.Marshal(rec)
	l.b.Write(data)
	l.b.WriteByte('\n')
}

// call adds a tool call and its result, an error when fail is set.
func (l *claudeLog) call(tid, tool string, input map[string]any, out string, fail bool) {
	l.line("assistant", []any{map[string]any{"type": "tool_use", "id": tid, "name": tool, "input": input}})
	res := map[string]any{"type": "tool_result", "tool_use_id": tid, "content": out}
	if fail {
		res["is_error"] = true
	}
	l.line("user", []any{res})
}

// save writes the session to dir/ID.jsonl, dated a day ago: a session
// over, which a scan settles.
func (l *claudeLog) save(t *testing.T, s *sandbox, dir string) {
	t.Helper()
	path := filepath.Join(dir, l.id+".jsonl")
	s.write(path, l.b.String())
	old := time.Now().Add(-24 * time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}
