package cmdutil

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// writeLessons writes n distinct, valid lessons into dir, shaped like real
// ones: a command regex with an unless, a path glob on some, tags and
// examples.
func writeLessons(tb testing.TB, dir string, n int) {
	tb.Helper()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range n {
		tool := fmt.Sprintf("tool%d", i)
		l := &lessons.Lesson{
			ID:       repo.NewID(now),
			Slug:     fmt.Sprintf("lesson-number-%d-about-%s", i, tool),
			Summary:  fmt.Sprintf("Lesson %d: %s needs its --safe flag in agent shells", i, tool),
			Problem:  fmt.Sprintf("Running %s without --safe rewrote files in place and lost work %d times before anyone noticed the damage.", tool, i),
			Solution: fmt.Sprintf("Run %s --safe first, read its plan, and only then run it for real on the working tree.", tool),
			Triggers: lessons.Trigger{
				Commands: []string{fmt.Sprintf(`\b%s\s+(run|apply)\b`, tool)},
				Unless:   []string{`--safe\b`},
			},
			Examples: lessons.Examples{
				Match:   []lessons.ToolCall{{Tool: "Bash", Command: tool + " run ."}},
				NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: tool + " run --safe ."}},
			},
			Priority:  1 + i%10,
			Tags:      []string{"topic:safety", fmt.Sprintf("tool:%s", tool)},
			CreatedAt: &now, UpdatedAt: &now,
		}
		if i%3 == 0 {
			l.Triggers.Tools = []string{"Bash", "Edit"}
			l.Triggers.Paths = []string{fmt.Sprintf("**/%s/*.conf", tool)}
			l.Triggers.Commands = nil
			l.Examples = lessons.Examples{
				Match:   []lessons.ToolCall{{Tool: "Edit", Path: "/x/" + tool + "/a.conf"}},
				NoMatch: []lessons.ToolCall{{Tool: "Edit", Path: "/x/other/a.conf"}},
			}
		}
		l.ContentHash = repo.ContentHash(l)
		if _, err := repo.WriteLesson(dir, l); err != nil {
			tb.Fatal(err)
		}
	}
}

func TestBuild(t *testing.T) {
	root := t.TempDir()
	d := scope.Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache")}
	writeLessons(t, d.GlobalLessons(), 20)
	b, err := Build(d, root, repo.Loader{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Merged.Warnings) > 0 {
		t.Fatalf("warnings: %v", b.Merged.Warnings)
	}
	m, err := engine.Open(d.ManifestPath(""))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Len() != len(b.Merged.Active) || m.Len() < 20 || !m.Fresh() {
		t.Errorf("manifest has %d lessons (fresh %v), want the %d active ones and fresh", m.Len(), m.Fresh(), len(b.Merged.Active))
	}
}

// BenchmarkBuild1000 loads, validates and merges 1,000 lesson files (plus
// the built-in ones), compiles the manifest and writes it: what `lessons
// build` and a stale hook do.
func BenchmarkBuild1000(b *testing.B) {
	root := b.TempDir()
	d := scope.Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache")}
	writeLessons(b, d.GlobalLessons(), 1000)
	var active, n int
	cpu := cpuTime()
	for b.Loop() {
		built, err := Build(d, root, repo.Loader{})
		if err != nil {
			b.Fatal(err)
		}
		active = built.Manifest.Len()
		n++
	}
	if active < 1000 {
		b.Fatalf("%d active lessons, want at least 1000", active)
	}
	b.ReportMetric(float64(active), "lessons")
	// CPU time, unlike ns/op, does not grow when other processes share
	// the machine.
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(float64(used.Milliseconds())/float64(n), "cpu-ms/op")
	}
}
