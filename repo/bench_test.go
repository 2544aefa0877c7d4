package repo

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// writeLessons writes n realistic lessons, with a few regexes, examples
// and every computed field, to dir.
func writeLessons(b *testing.B, dir string, n int) {
	b.Helper()
	now := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	for i := range n {
		l := &lessons.Lesson{
			ID:      NewID(now.Add(time.Duration(i) * time.Second)),
			Slug:    fmt.Sprintf("tool-%d-hangs-without-a-flag-%04d", i, i),
			Summary: fmt.Sprintf("tool-%d hangs in agent sessions unless it runs with --no-input", i),
			Problem: fmt.Sprintf("tool-%d waits for confirmation on the terminal when stdin is a TTY. The agent cannot answer, "+
				"so the call hangs until the harness kills it and the session loses minutes.\n", i),
			Solution: fmt.Sprintf("Run tool-%d with --no-input (or CI=1) so it fails fast instead of prompting; "+
				"pass answers as flags.\n", i),
			Triggers: lessons.Trigger{
				Commands: []string{fmt.Sprintf(`\btool-%d\b(?!.*--no-input)`, i), fmt.Sprintf(`^npx\s+tool-%d\b`, i)},
				Unless:   []string{`\bCI=1\b`},
				Paths:    []string{"**/tool.config.js"},
				Keywords: []string{"hang", "prompt", fmt.Sprintf("tool-%d", i)},
			},
			Examples: lessons.Examples{
				Match:   []lessons.ToolCall{{Tool: "Bash", Command: fmt.Sprintf("tool-%d deploy", i)}},
				NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: fmt.Sprintf("tool-%d deploy --no-input", i)}, {Tool: "Read", Path: "tool.config.js"}},
			},
			Priority:   1 + i%10,
			Confidence: 0.9,
			Tags:       []string{"lang:javascript", "topic:hangs"},
			Source:     &lessons.Source{Sessions: 2, Occurrences: 3, Agent: "claude-code"},
			CreatedAt:  &now,
			UpdatedAt:  &now,
		}
		l.ContentHash = ContentHash(l)
		if _, err := WriteLesson(dir, l); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad1000 measures loading a store of 1,000 lesson files: read,
// parse, schema-validate and lessons.Validate each one.
func BenchmarkLoad1000(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "lessons")
	writeLessons(b, dir, 1000)
	store := scope.Store{Scope: lessons.ScopeGlobal, Dir: dir}
	for b.Loop() {
		got, errs := Loader{}.Lessons(store)
		if len(got) != 1000 || len(errs) != 0 {
			b.Fatalf("loaded %d lessons, errors %v", len(got), errs)
		}
	}
}
