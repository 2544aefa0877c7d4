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
// name each time. After one session replay --learn has a lesson on the
// refusal below minConfidence, which the hook says after the refusal as
// a reminder: both repeats are cut short, nothing comes before a call.
// A known failure is never proposed: with reminders off
// (minErrorConfidence at minConfidence) it is not said at all.
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
	off := lessons.DefaultConfig()
	off.MinErrorConfidence = off.MinConfidence
	for _, c := range []struct {
		name      string
		cfg       lessons.Config
		shortened int
	}{{"reminders", lessons.DefaultConfig(), 2}, {"no reminders", off, 0}} {
		rep, _ := learnWith(t, dir, c.cfg)
		if rep.Repeated != 2 || rep.Learn.Shortened != c.shortened || rep.Learn.LearnedFiresBeforeFine != 0 {
			t.Errorf("%s: %d repeated, %d shortened, %d learned fires before fine calls; want 2, %d, 0",
				c.name, rep.Repeated, rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine, c.shortened)
		}
	}
}

// learnAll replays the sessions in dir with every candidate learned, on
// the default config, and returns the report and its trace.
func learnAll(t *testing.T, dir string) (*Report, string) {
	t.Helper()
	return learnWith(t, dir, lessons.DefaultConfig())
}

// learnWith is learnAll on cfg.
func learnWith(t *testing.T, dir string, cfg lessons.Config) (*Report, string) {
	t.Helper()
	var trace bytes.Buffer
	rep, err := Run(context.Background(), Job{Merged: scope.Merged{Config: cfg}, Learn: LearnAll,
		Weights: scanner.DefaultWeights(), Read: scanner.ReadOptions{Paths: []string{dir}}, Trace: &trace})
	if err != nil {
		t.Fatal(err)
	}
	return rep, trace.String()
}
