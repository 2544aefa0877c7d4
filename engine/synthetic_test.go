package engine

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// syntheticLessons makes n lessons shaped like real ones: about half
// command lessons, a quarter path lessons, the rest content lessons and a
// few tool-only ones; about 10% of the patterns use lookaround.
func syntheticLessons(n int) []lessons.Lesson {
	rng := rand.New(rand.NewPCG(7, 11))
	tools := []string{"git", "npm", "pnpm", "pip", "pytest", "docker", "kubectl", "terraform", "cargo", "go",
		"make", "sed", "rm", "curl", "psql", "alembic", "jest", "mocha", "yarn", "helm"}
	subs := []string{"push", "install", "run", "build", "apply", "test", "exec", "migrate", "deploy", "link",
		"upgrade", "rebase", "stash", "publish", "login", "logs", "init", "sync", "revision", "compose"}
	exts := []string{"py", "ts", "js", "go", "rs", "yaml", "tf", "sql", "md", "toml"}
	dirs := []string{"migrations", "src", "tests", "deploy", "charts", "infra", "api", "web", "scripts", "docs"}
	idents := []string{"await", "mock.patch", "useEffect", "os.environ", "subprocess", "console.log",
		"eval", "SELECT", "unwrap", "panic", "setTimeout", "innerHTML", "pickle.load", "yaml.load"}
	out := make([]lessons.Lesson, 0, n)
	for i := range n {
		var t lessons.Trigger
		tool, sub := tools[rng.IntN(len(tools))], subs[rng.IntN(len(subs))]
		word := fmt.Sprintf("%s%d", sub, i)
		switch k := rng.IntN(100); {
		case k < 10: // lookaround
			t.Commands = []string{fmt.Sprintf(`\b%s\s+%s(?!.*--%s-safe)`, tool, word, sub)}
		case k < 50:
			t.Commands = []string{fmt.Sprintf(`\b%s\s+(%s|%s-all)\b`, tool, word, word)}
			if k%3 == 0 {
				t.Unless = []string{fmt.Sprintf(`--dry-run-%d`, i)}
			}
			if k%5 == 0 {
				t.Commands[0] = "(?i)" + t.Commands[0]
			}
		case k < 75:
			t.Paths = []string{fmt.Sprintf("**/%s%d/*.%s", dirs[rng.IntN(len(dirs))], i, exts[rng.IntN(len(exts))])}
		case k < 95:
			t.Content = []string{fmt.Sprintf(`%s\(\s*%s_%d`, strings.ReplaceAll(idents[rng.IntN(len(idents))], ".", `\.`), sub, i)}
			t.Paths = []string{"*." + exts[rng.IntN(len(exts))]}
		default:
			t.Tools = []string{fmt.Sprintf("mcp__svc%d__*", i%7)}
		}
		t.Keywords = []string{tool, sub, word}
		slug := fmt.Sprintf("%s-%s-lesson-%04d", tool, sub, i)
		out = append(out, lessons.Lesson{
			ID: slug, Slug: slug,
			Summary:  fmt.Sprintf("%s %s needs care in case %d", tool, sub, i),
			Problem:  strings.Repeat(fmt.Sprintf("Running %s %s the usual way failed in case %d. ", tool, word, i), 4),
			Solution: strings.Repeat(fmt.Sprintf("Run %s %s with the safe flags instead. ", tool, word), 3),
			Triggers: t, Priority: 1 + rng.IntN(10), Tags: []string{"tool:" + tool},
		})
	}
	return out
}

func syntheticManifest(tb testing.TB, n int) string {
	tb.Helper()
	m, err := Compile(merged(syntheticLessons(n)...), scope.Stamp{})
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "bench.manifest")
	if err := m.WriteManifest(path); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestWriteBenchManifest writes the 1,000-lesson manifest that
// scripts/bench-hook.sh times the hook on, when LESSONS_BENCH_PROJECT
// names the project: where the hook looks for it, under XDG_CACHE_HOME;
// with LESSONS_BENCH_ERRORS=N, N lessons on an error too.
func TestWriteBenchManifest(t *testing.T) {
	project := os.Getenv("LESSONS_BENCH_PROJECT")
	if project == "" {
		t.Skip("LESSONS_BENCH_PROJECT not set")
	}
	path := scope.DefaultDirs(os.Getenv).ManifestPath(project)
	ls := syntheticLessons(1000)
	if n, _ := strconv.Atoi(os.Getenv("LESSONS_BENCH_ERRORS")); n > 0 {
		ls = append(ls, syntheticErrorLessons(n)...) // lessons on an error, for the failure's row
	}
	mg := merged(ls...)
	mg.Project = project
	m, err := Compile(mg, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteManifest(path); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d lessons, %d bytes, to %s", m.Len(), len(m.data), path)
}

var benchCalls = map[string]Call{
	"Bash":  {Tool: "Bash", Command: "git push origin feature-branch && npm run build -- --watch=false"},
	"Edit":  {Tool: "Edit", Paths: []string{"/home/dev/proj/src/api/handlers.py"}, Contents: []string{"result = await client.fetch(url)\nmock.patch('app.db')\n"}},
	"Write": {Tool: "Write", Paths: []string{"/home/dev/proj/migrations12/0001_init.sql"}, Contents: []string{strings.Repeat("CREATE TABLE t (id int);\n", 40)}},
}

func BenchmarkOpenMatch(b *testing.B) {
	path := syntheticManifest(b, 1000)
	for name, call := range benchCalls {
		b.Run(name, func(b *testing.B) {
			var c Counters
			for b.Loop() {
				m, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				var mt Matcher
				if _, err := mt.Match(m, call); err != nil {
					b.Fatal(err)
				}
				m.Close()
				c = mt.Counters
			}
			b.ReportMetric(float64(c.Considered), "considered")
			b.ReportMetric(float64(c.Compiled), "compiled")
		})
	}
}

// BenchmarkOpen is what opening a 1,000-lesson manifest costs the hook:
// read, checksum, decode the header and meta section.
func BenchmarkOpen(b *testing.B) {
	path := syntheticManifest(b, 1000)
	for b.Loop() {
		m, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		m.Close()
	}
}

func BenchmarkCompile(b *testing.B) {
	mg := merged(syntheticLessons(1000)...)
	for b.Loop() {
		if _, err := Compile(mg, scope.Stamp{}); err != nil {
			b.Fatal(err)
		}
	}
}
