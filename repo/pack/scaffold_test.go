package pack

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

func TestInitScaffoldsAPackThatSyncs(t *testing.T) {
	dir := t.TempDir()
	meta := Meta{Name: "team", Description: "Lessons: what our agents got wrong", Maintainers: []string{"@acme/platform", "@ada"}}
	created, err := Init(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".github/CODEOWNERS", ".github/workflows/lessons.yml", "README.md", "corpus/README.md", "lessons/.gitkeep", "pack.yaml"}
	if !slices.Equal(created, want) {
		t.Errorf("Init created %v, want %v", created, want)
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	var got Meta
	if err := repo.Decode(repo.PackSchema, "pack.yaml", []byte(read("pack.yaml")), &got); err != nil {
		t.Fatalf("pack.yaml: %v", err)
	}
	if got.Name != meta.Name || got.Description != meta.Description || !slices.Equal(got.Maintainers, meta.Maintainers) {
		t.Errorf("pack.yaml = %+v, want %+v", got, meta)
	}
	for file, wants := range map[string][]string{
		".github/workflows/lessons.yml": {"pull_request", "lessons test", "lessons doctor", "lessons replay --path corpus --scope global --max-noise 0.9", "LESSONS_HOME: ${{ github.workspace }}"},
		".github/CODEOWNERS":            {"*  @acme/platform @ada"},
		"README.md":                     {"lessons submit <slug> --pack team", "lessons/<slug>.yaml", "allowBlock"},
	} {
		for _, w := range wants {
			if !strings.Contains(read(file), w) {
				t.Errorf("%s lacks %q", file, w)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		t.Errorf("Init did not make a git repository: %v", err)
	}
	if _, err := Init(dir, meta); err == nil || !strings.Contains(err.Error(), "pack.yaml") {
		t.Errorf("second Init: err %v, want a refusal naming the files", err)
	}
	if _, err := Init(t.TempDir(), Meta{Name: "../evil"}); err == nil {
		t.Error("Init accepted a name that is not kebab-case")
	}

	packtest.NeedGit(t)
	root := t.TempDir()
	files := map[string]string{"lessons/first.yaml": packtest.LessonYAML("first", 1)}
	for _, name := range created {
		files[name] = read(name)
	}
	files["lessons/.gitkeep"] = "\n"
	packtest.NewUpstream(t, root, "team", files)
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	if r := e.one(Options{}, lessons.PackRef{Name: "team", URL: base + "team.git"}); r.Err != nil || r.Lessons != 1 {
		t.Fatalf("sync of a scaffolded pack: err %v, %d lessons", r.Err, r.Lessons)
	}
}
