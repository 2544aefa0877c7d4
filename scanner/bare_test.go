package scanner

import (
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestBareCommandGivenASubcommand: a command run bare prints its usage,
// and the retry names what to do (claude mcp, then claude mcp list). The
// lesson is on the bare command only, not on every call that names
// another subcommand (claude mcp add …) and fails.
func TestBareCommandGivenASubcommand(t *testing.T) {
	usage := "Usage: claude mcp [options] [command]\n\nConfigure and manage MCP servers\n\nCommands:\n  add  list  remove"
	session := []step{run("claude mcp", 1, usage), run("claude mcp list", 0, "github: connected")}
	c := find(scanned(t, session, session), KindRetry, "claude mcp")
	if c == nil {
		t.Fatal("no retry")
	}
	if ps := lessons.Errors(lessons.Validate(ptr(ToLesson(*c)))); len(ps) > 0 {
		t.Errorf("the lesson does not validate: %v", ps)
	}
	for cmd, want := range map[string]bool{
		"claude mcp":                          true,
		"claude mcp 2>&1":                     true,
		"claude mcp && echo done":             true,
		"claude mcp add github -- npx server": false,
		"claude mcp remove github":            false,
		"claude mcp list":                     false,
	} {
		if got := fires(t, *c, lessons.ToolCall{Tool: "Bash", Command: cmd, Error: usage}); got != want {
			t.Errorf("fires before %q = %v, want %v (triggers %+v)", cmd, got, want, c.Triggers)
		}
	}
}
