package replay

import (
	"fmt"
	"testing"
	"time"
)

// TestLearnErrorTriggerAcrossClasses: the sandbox stops a test run that
// listens on a port, and the same command out of the sandbox works. In
// the second session the same refusal names another address, so the
// failure's class differs from the one learned; the lesson's error
// trigger still matches what the call printed, and the lesson reaching
// the agent with it cuts the repeat short.
func TestLearnErrorTriggerAcrossClasses(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, addr := range []string{"127.0.0.1", "::1"} {
		fail := "Exit code 1\nError: listen EPERM: operation not permitted " + addr + "\n    at Server.setupListenHandle (node:net:1926:21)"
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		l.tool("Bash", map[string]any{"command": "npx vitest run", "description": "Run the tests"}, fail, true)
		l.tool("Bash", map[string]any{"command": "npx vitest run", "description": "Run the tests outside the sandbox", "dangerouslyDisableSandbox": true}, "12 passed", false)
		l.write(t, dir)
	}
	rep, trace := learnAll(t, dir)
	if rep.Learn.Shortened != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d shortened, %d learned fires before fine calls; want 1, 0\n%s",
			rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine, trace)
	}
}

// TestLearnRefusalAcrossFileTools: a hook refuses writes to a folder in
// two sessions, before any change; in the third it refuses a read there.
// The second write is cut short by the lesson as a reminder; the lesson
// on the folder comes with the refusal of the other tool too, its class
// the same: both are cut short.
func TestLearnRefusalAcrossFileTools(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, tool := range []string{"Write", "Write", "Read"} {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		p := fmt.Sprintf("/home/dev/.agent/drafts/plan-%c.md", 'a'+i)
		l.tool(tool, map[string]any{"file_path": p, "content": "# plan"},
			"Refused: '"+p+"' is inside a guarded folder (policy hook).", true)
		l.bash("go build ./...", "", false)
		l.write(t, dir)
	}
	rep, trace := learnAll(t, dir)
	if rep.Learn.Shortened != 2 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d shortened, %d learned fires before fine calls; want 2, 0\n%s",
			rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine, trace)
	}
}
