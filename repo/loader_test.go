package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoaderLessons(t *testing.T) {
	dir := t.TempDir()
	other := strings.NewReplacer("01JGJFGR48DM9AMTY72FQ2RG07", "01JGJFGR48DM9AMTY72FQ2RG08", "pytest-hangs-on-tty-k3x9", "other-lesson-ab12").Replace(minimal)
	writeFiles(t, dir, map[string]string{
		"pytest-hangs-on-tty-k3x9.yaml":      minimal,
		"a-broken.yaml":                      "slug: [\n",
		"other-lesson-ab12.yml":              other,
		"wrong-name-zz99.yaml":               other,
		"config.yaml":                        "minPriority: 3\n",
		".pytest-hangs-on-tty-k3x9.yaml1234": "half written",
		"notes.txt":                          "not a lesson",
	})
	if err := os.Mkdir(filepath.Join(dir, "sub.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, errs := Loader{}.Lessons(scope.Store{Scope: lessons.ScopeProject, Dir: dir, AllowBlock: true})
	if len(got) != 2 || got[0].Slug != "other-lesson-ab12" || got[1].Slug != "pytest-hangs-on-tty-k3x9" {
		t.Fatalf("Lessons = %v, want other-lesson-ab12 and pytest-hangs-on-tty-k3x9", got)
	}
	if r := got[1]; r.Scope != lessons.ScopeProject || r.Path != filepath.Join(dir, "pytest-hangs-on-tty-k3x9.yaml") || !r.AllowBlock {
		t.Errorf("Resolved = scope %s, path %s, allowBlock %v", r.Scope, r.Path, r.AllowBlock)
	}
	if len(errs) != 2 {
		t.Fatalf("Lessons errors = %v, want the broken file and the misnamed one", errs)
	}
	if want := filepath.Join(dir, "a-broken.yaml") + ":1:1: invalid YAML"; !strings.HasPrefix(errs[0].Error(), want) {
		t.Errorf("error = %q, want it to start with %q", errs[0], want)
	}
	var fe *FileError
	if !errors.As(errs[1], &fe) || fe.Field != "slug" || fe.Line != 2 || !strings.Contains(fe.Msg, `"other-lesson-ab12"`) || !strings.Contains(fe.Msg, `"wrong-name-zz99"`) {
		t.Errorf("misnamed file error = %v, want one on slug at line 2 naming both", errs[1])
	}
}

func TestLoaderMissingStore(t *testing.T) {
	got, errs := Loader{}.Lessons(scope.Store{Scope: lessons.ScopeGlobal, Dir: filepath.Join(t.TempDir(), "none")})
	if len(got) != 0 || len(errs) != 0 {
		t.Errorf("Lessons(missing dir) = %v, %v; want nothing", got, errs)
	}
}

func TestLoaderBuiltin(t *testing.T) {
	got, errs := Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: "lessons.d", AllowBlock: true})
	for _, err := range errs {
		t.Errorf("built-in lesson: %v", err)
	}
	if len(got) == 0 {
		t.Error("no built-in lessons loaded from lessons.d")
	}
	for _, r := range got {
		if r.Scope != lessons.ScopeBuiltin || !strings.HasPrefix(r.Path, "lessons.d/") {
			t.Errorf("built-in lesson %s: scope %s, path %s", r.Slug, r.Scope, r.Path)
		}
	}
}
