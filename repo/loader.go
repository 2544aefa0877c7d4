package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Loader reads lesson stores and config files: stores from disk, the
// built-in one and the packs shipped with the binary from lessons.Builtin.
type Loader struct{}

var _ scope.Loader = Loader{}

// Lessons loads every lesson file of the store, in file name order: each
// *.yaml and *.yml file of s.Dir except config.yaml and hidden files. A
// file that fails to load is one error (Problems naming its file, line and
// column) and the others still load; so is a file whose slug differs from
// its name, since the name is how commands find a lesson; and so is a
// lesson file that is a named pipe, a socket or a device, which is never
// opened. A store whose directory does not exist yet has no lessons.
func (Loader) Lessons(s scope.Store) ([]scope.Resolved, []error) {
	fsys, dir, display := fs.FS(lessons.Builtin), s.Dir, func(name string) string { return path.Join(s.Dir, name) }
	read := func(name string) ([]byte, error) { return readFile(fsys, path.Join(dir, name)) }
	if s.Scope != lessons.ScopeBuiltin && !s.Embedded {
		fsys, dir, display = os.DirFS(s.Dir), ".", func(name string) string { return filepath.Join(s.Dir, name) }
		read = func(name string) ([]byte, error) { return ReadFile(filepath.Join(s.Dir, name)) }
	}
	entries, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("reading the %s store: %w", s.Scope, err)}
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && isLessonFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	results := make([]loaded, len(names))
	parallel(len(names), func(i int) {
		results[i] = loadLesson(read, names[i], display(names[i]), slugOf(names[i]))
	})
	var out []scope.Resolved
	var errs []error
	for _, r := range results {
		if r.err != nil {
			errs = append(errs, r.err)
			continue
		}
		out = append(out, scope.Resolved{Lesson: *r.lesson, Scope: s.Scope, Path: r.path, AllowBlock: s.AllowBlock})
	}
	return out, errs
}

// loaded is the outcome of loading one file.
type loaded struct {
	lesson *lessons.Lesson
	path   string
	err    error
}

func loadLesson(read func(name string) ([]byte, error), name, display, slug string) loaded {
	data, err := read(name)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // display names the file
	}
	if err != nil {
		return loaded{err: fmt.Errorf("%s: %w", display, err)}
	}
	l, ps := checkLesson(display, data, slug)
	if err := ps.Err(); err != nil {
		return loaded{err: err}
	}
	return loaded{lesson: l, path: display}
}

// parallel runs f(0) … f(n-1) on as many goroutines as there are CPUs:
// parsing and validating a thousand files is CPU-bound.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
