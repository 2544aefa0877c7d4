package scope

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
)

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// touchLater sets path's modification time a second ahead, as a later
// save would, without relying on the file system's clock resolution.
func touchLater(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

func TestSourcesSeeChanges(t *testing.T) {
	f := newFixture(t)
	lessonFile := filepath.Join(f.projectDir(), "a.yaml")
	write(t, lessonFile, "slug: a\n")
	cases := []struct {
		name   string
		change func(t *testing.T)
	}{
		{"project lesson edited in place", func(t *testing.T) { touchLater(t, lessonFile) }},
		{"project lesson added", func(t *testing.T) {
			write(t, filepath.Join(f.projectDir(), "b.yaml"), "slug: b\n")
			touchLater(t, f.projectDir())
		}},
		{"project config created", func(t *testing.T) { write(t, ProjectConfig(f.project), "minPriority: 2\n") }},
		{"global store created", func(t *testing.T) { write(t, filepath.Join(f.d.GlobalLessons(), "g.yaml"), "slug: g\n") }},
		{"global config created", func(t *testing.T) { write(t, f.d.GlobalConfig(), "minPriority: 2\n") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := f.merge(f.project)
			if !Fresh(m.Sources) {
				t.Fatal("Fresh right after merging = false")
			}
			c.change(t)
			if Fresh(m.Sources) {
				t.Errorf("Fresh after %s = true, want false", c.name)
			}
		})
	}
}

func TestSourcesStayFew(t *testing.T) {
	f := newFixture(t)
	for _, n := range []string{"a.yaml", "b.yaml", "config.yaml", "lessons.lock", "notes.txt"} {
		write(t, filepath.Join(f.projectDir(), n), "x: 1\n")
	}
	// Besides one stamp per LESSONS_* variable: global dir + config,
	// project dir + config, a.yaml and b.yaml.
	env := len(lessons.ConfigKeys())
	m := f.merge(f.project)
	if len(m.Sources) != env+6 {
		t.Errorf("%d stamps, want %d: %+v", len(m.Sources), env+6, m.Sources)
	}
	if m := f.merge(f.outside); len(m.Sources) != env+2 {
		t.Errorf("outside a project: %d stamps, want %d", len(m.Sources), env+2)
	}
}

// BenchmarkFresh checks a realistic manifest's sources: the global store,
// one pack, and a project with ten lesson files.
func BenchmarkFresh(b *testing.B) {
	root := b.TempDir()
	d := Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache")}
	project := filepath.Join(root, "proj")
	write(b, d.GlobalConfig(), "minPriority: 1\n")
	write(b, filepath.Join(d.GlobalLessons(), "g.yaml"), "slug: g\n")
	write(b, filepath.Join(d.PackDir("team", ""), "lessons", "t.yaml"), "slug: t\n")
	for i := range 10 {
		write(b, filepath.Join(project, ProjectDirName, string(rune('a'+i))+".yaml"), "slug: x\n")
	}
	cfg := lessons.Config{Packs: []lessons.PackRef{{Name: "team"}}}
	stamps := sources(d, project, cfg, os.Getenv)
	if !Fresh(stamps) {
		b.Fatal("not fresh")
	}
	for b.Loop() {
		Fresh(stamps)
	}
	b.ReportMetric(float64(len(stamps)), "stamps")
}

func TestEnvironmentIsASource(t *testing.T) {
	d := Dirs{Home: t.TempDir(), Cache: t.TempDir()}
	env := map[string]string{"LESSONS_DISABLE": "a-1234"}
	getenv := func(k string) string { return env[k] }
	stamps := sources(d, "", lessons.Config{}, getenv)
	check := func(want bool) {
		t.Helper()
		for _, s := range stamps {
			if got := stampOf(s.Path, getenv) == s; !got && want {
				t.Fatalf("stamp %s changed with nothing changed", s.Path)
			} else if !got {
				return
			}
		}
		if !want {
			t.Fatal("changing LESSONS_DISABLE left every stamp as it was")
		}
	}
	check(true)
	env["LESSONS_DISABLE"] = "a-1234,b-5678"
	check(false)
	env = map[string]string{"LESSONS_MIN_PRIORITY": "4"}
	check(false)
}
