package repo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lessons-dev/lessons/scope"
)

func TestProjectLessonFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".lessons")
	l := fullLesson()
	path, err := CreateLesson(dir, l)
	if err != nil || path != filepath.Join(dir, l.Slug+".yaml") {
		t.Fatalf("CreateLesson = %s, %v", path, err)
	}
	if _, err := CreateLesson(dir, l); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second CreateLesson = %v, want fs.ErrExist", err)
	}
	// A lesson kept in a .yml file stays there when rewritten.
	yml := filepath.Join(dir, l.Slug+".yml")
	if err := os.Rename(path, yml); err != nil {
		t.Fatal(err)
	}
	l.Priority = 3
	if got, err := WriteLesson(dir, l); err != nil || got != yml {
		t.Errorf("WriteLesson = %s, %v; want %s", got, err, yml)
	}
	data, _ := os.ReadFile(yml)
	if got, err := ParseLesson(yml, data); err != nil || got.Priority != 3 {
		t.Errorf("rewritten lesson = %+v, %v", got, err)
	}
	if got, err := RemoveLesson(dir, l.Slug); err != nil || got != yml {
		t.Errorf("RemoveLesson = %s, %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "f.yaml")
	for _, data := range []string{"one\n", "two\n"} {
		if err := scope.WriteFileAtomic(path, []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("file = %q, want %q", got, data)
		}
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640 whatever the umask", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("directory holds %v, want only f.yaml", entries)
	}
}
