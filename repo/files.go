package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// slugPattern is the schema's slug pattern; checking it keeps a slug from
// naming a path outside its store.
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// lessonExts are the extensions of lesson files; ".yaml" is written.
var lessonExts = []string{".yaml", ".yml"}

// isLessonFile reports whether a directory entry name is a lesson file:
// YAML, not config.yaml, and not hidden (editors and atomic writes keep
// their temporary files hidden).
func isLessonFile(name string) bool {
	if strings.HasPrefix(name, ".") || name == "config.yaml" || name == "config.yml" {
		return false
	}
	return slugOf(name) != name
}

// slugOf is a lesson file's name without its extension.
func slugOf(name string) string {
	for _, ext := range lessonExts {
		if s, ok := strings.CutSuffix(name, ext); ok {
			return s
		}
	}
	return name
}

// LessonFile returns the path of the file holding the lesson slug in
// dir, whichever extension it has; an error wrapping fs.ErrNotExist when
// there is none.
func LessonFile(dir, slug string) (string, error) {
	if !slugPattern.MatchString(slug) {
		return "", fmt.Errorf("%q is not a lesson slug (lower-case words joined by dashes)", slug)
	}
	for _, ext := range lessonExts {
		p := filepath.Join(dir, slug+ext)
		if _, err := os.Lstat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no lesson %s in %s: %w", slug, dir, fs.ErrNotExist)
}

// WriteLesson writes l to its file in dir (<slug>.yaml, or the .yml file
// already holding it), atomically, and returns the path. It refuses,
// writing nothing, a lesson that would not load back.
func WriteLesson(dir string, l *lessons.Lesson) (string, error) {
	data, err := MarshalLesson(l)
	if err != nil {
		return "", err
	}
	path, err := LessonFile(dir, l.Slug)
	if errors.Is(err, fs.ErrNotExist) {
		path = filepath.Join(dir, l.Slug+".yaml")
	}
	if _, err := ParseLesson(path, data); err != nil {
		return "", err
	}
	return path, scope.WriteFileAtomic(path, data, 0o644)
}

// CreateLesson is WriteLesson for a new lesson: an error wrapping
// fs.ErrExist when dir already has a file for the slug.
func CreateLesson(dir string, l *lessons.Lesson) (string, error) {
	if p, err := LessonFile(dir, l.Slug); err == nil {
		return "", fmt.Errorf("lesson %s already exists at %s: %w", l.Slug, p, fs.ErrExist)
	}
	return WriteLesson(dir, l)
}

// RemoveLesson deletes the file of the lesson slug in dir and returns its
// path; an error wrapping fs.ErrNotExist when there is none.
func RemoveLesson(dir, slug string) (string, error) {
	path, err := LessonFile(dir, slug)
	if err != nil {
		return "", err
	}
	return path, os.Remove(path)
}

// ReadFile reads a lessons file (a lesson, a config) from disk: at most
// MaxFileSize+1 bytes of it, so that a huge file costs no more than the
// error saying it is too big, and only if it is a regular file: a named
// pipe, socket or device is an error wrapping scope.ErrNotRegular,
// returned without blocking.
func ReadFile(path string) ([]byte, error) {
	f, err := scope.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	return readCapped(f)
}

// readFile reads a file of fsys as ReadFile does.
func readFile(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return readCapped(f)
}

func readCapped(f fs.File) ([]byte, error) {
	defer f.Close()
	size := 512
	if fi, err := f.Stat(); err == nil {
		size = int(min(fi.Size(), MaxFileSize)) + 1
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	_, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1))
	return buf.Bytes(), err
}
