package replay

import (
	"context"
	"fmt"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// TestLearnShellSetting: the sandbox stops a test run that listens on a
// port, and the same command out of the sandbox works. Learned from the
// first session, the lesson reaches the agent with the same refusal in
// the second: the repeat is cut short.
func TestLearnShellSetting(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	fail := "Exit code 1\nnode:events:486\n      throw er; // Unhandled 'error' event\n      ^\n\nError: listen EPERM: operation not permitted 127.0.0.1\n    at Server.setupListenHandle (node:net:1926:21)"
	for i := range 2 {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		l.tool("Bash", map[string]any{"command": "npx vitest run", "description": "Run the tests"}, fail, true)
		l.tool("Bash", map[string]any{"command": "npx vitest run", "description": "Run the tests outside the sandbox", "dangerouslyDisableSandbox": true}, "12 passed", false)
		l.write(t, dir)
	}
	rep, err := Run(context.Background(), Job{Merged: scope.Merged{Config: lessons.DefaultConfig()}, Learn: LearnAll,
		Weights: scanner.DefaultWeights(), Read: scanner.ReadOptions{Paths: []string{dir}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Repeated != 1 || rep.Learn.Shortened != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d repeated, %d shortened, %d learned fires before fine calls; want 1, 1, 0",
			rep.Repeated, rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine)
	}
}
