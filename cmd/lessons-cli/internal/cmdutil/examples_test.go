package cmdutil

import (
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

// A lesson that keeps to foreground calls checks it with a background
// example; lessons test names both the example and how it ran.
func TestCheckExamplesInTheBackground(t *testing.T) {
	l := &lessons.Lesson{ID: "01JQ0000000000000000000077", Slug: "serve-blocks", Summary: "a dev server blocks the agent",
		Triggers: lessons.Trigger{Commands: []string{`\bnpm\s+run\s+dev\b`}, Foreground: true},
		Examples: lessons.Examples{
			Match:   []lessons.ToolCall{{Tool: "Bash", Command: "npm run dev"}},
			NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: "npm run dev", Background: true}},
		}}
	if n, fails := CheckExamples(l); n != 2 || len(fails) != 0 {
		t.Errorf("CheckExamples = %d, %v; want 2 examples, no failure", n, fails)
	}
	l.Triggers.Foreground = false
	_, fails := CheckExamples(l)
	want := `examples.noMatch[0] "npm run dev" run in the background: matches, but should not`
	if len(fails) != 1 || fails[0].String() != want {
		t.Errorf("without foreground: %v, want %q", fails, want)
	}
}
