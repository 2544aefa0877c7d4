package replay

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// tool logs a call of another tool than the shell and its result; fail
// marks the result an error whose text is out.
func (l *claudeLog) tool(name string, input map[string]any, out string, fail bool) {
	id := fmt.Sprintf("t%d", l.n)
	l.line(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}})
	res := map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}
	if fail {
		res["is_error"] = true
	}
	l.line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{res}}})
}

// TestLearnKnownFailureOfAFolder: a hook refuses writes to a folder in
// every session, before the agent changed anything, under a new file
// name each time. After two sessions replay --learn has learned it, and
// in the third the lesson reaches the agent with the refusal: the repeat
// is cut short.
func TestLearnKnownFailureOfAFolder(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, name := range []string{"calm-otter", "busy-heron", "quiet-lynx"} {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		p := "/home/dev/.agent/drafts/" + name + ".md"
		l.tool("Write", map[string]any{"file_path": p, "content": "# plan"},
			"Refused: '"+p+"' is inside a guarded folder (policy hook).", true)
		l.bash("go build ./...", "", false)
		l.bash("go test ./...", "ok", false)
		l.write(t, dir)
	}
	rep, _ := learnAll(t, dir)
	if rep.Repeated != 2 || rep.Learn.Shortened != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d repeated, %d shortened, %d learned fires before fine calls; want 2, 1, 0",
			rep.Repeated, rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine)
	}
}

// learnAll replays the sessions in dir with every candidate learned, on
// the default config, and returns the report and its trace.
func learnAll(t *testing.T, dir string) (*Report, string) {
	t.Helper()
	var trace bytes.Buffer
	rep, err := Run(context.Background(), Job{Merged: scope.Merged{Config: lessons.DefaultConfig()}, Learn: LearnAll,
		Weights: scanner.DefaultWeights(), Read: scanner.ReadOptions{Paths: []string{dir}}, Trace: &trace})
	if err != nil {
		t.Fatal(err)
	}
	return rep, trace.String()
}
