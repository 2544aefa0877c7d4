package scanner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lessons-dev/lessons/scope"
)

// DefaultPaths are where the agents keep their sessions, under home:
// Claude Code projects (subagent files included), Codex sessions, Gemini
// CLI chats (every project hash), and opencode's database (1.2 and later)
// and storage tree (before).
func DefaultPaths(home string) []string {
	return []string{
		filepath.Join(home, ".claude", "projects"),
		filepath.Join(home, ".codex", "sessions"),
		filepath.Join(home, ".codex", "archived_sessions"),
		filepath.Join(home, ".gemini", "tmp"),
		opencodeDBPath(home),
		filepath.Join(home, ".local", "share", "opencode", "storage"),
	}
}

// candidateFile is a file the walk found, with its stat.
type candidateFile struct {
	path string
	info fs.FileInfo
}

// walker lists session files. A root that is a symlink is followed (a
// log root such as ~/.claude/projects often is one), and so is a link to
// a session file; a link to a directory inside a root is not, as one to
// the home directory would make the scan read every JSON file there.
// Each real directory is entered and each real file listed once, so
// overlapping roots cost nothing twice.
type walker struct {
	// onErr is told of every path that could not be read, and of
	// session files that are not regular files (pipes, sockets,
	// devices), which are skipped rather than opened.
	onErr func(path string, err error)
	fn    func(candidateFile)
	// seen holds the real paths of the directories entered and the
	// files listed.
	seen map[string]bool
}

// walk lists the session files under paths. Missing paths are ignored;
// other errors are counted by the caller through onErr.
func walk(paths []string, onErr func(path string, err error), fn func(candidateFile)) {
	w := &walker{onErr: onErr, fn: fn, seen: map[string]bool{}}
	for _, root := range paths {
		w.visit(root, true)
	}
}

// visit lists p, a root or a symlink met in a walk: a session file, or,
// for a root, a directory to walk. A missing path, or a link to one, is
// no error.
func (w *walker) visit(p string, root bool) {
	fi, err := os.Stat(p)
	if err == nil && fi.IsDir() && !root {
		return
	}
	var real string
	if err == nil {
		real, err = filepath.EvalSymlinks(p)
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.onErr(p, err)
		}
		return
	}
	switch {
	case fi.IsDir():
		w.dir(p, real)
	case w.seen[real] || !sessionFile(filepath.Base(p)):
	case !fi.Mode().IsRegular():
		w.seen[real] = true
		w.onErr(p, notRegular(fi.Mode()))
	default:
		w.seen[real] = true
		w.fn(candidateFile{path: p, info: fi})
	}
}

// notRegular is the error for a session file that is a pipe, a socket or
// a device: opening one could block the scan forever.
func notRegular(m fs.FileMode) error {
	return fmt.Errorf("%w (a %s); skipped", scope.ErrNotRegular, scope.FileKind(m))
}

// dir walks the directory p, whose real path is real.
func (w *walker) dir(p, real string) {
	if w.seen[real] {
		return
	}
	w.seen[real] = true
	ents, err := os.ReadDir(p)
	if err != nil {
		w.onErr(p, err)
		return
	}
	for _, e := range ents {
		name := e.Name()
		child := filepath.Join(p, name)
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			w.visit(child, false)
		case t.IsDir():
			if !skipDir(child, name) {
				w.dir(child, filepath.Join(real, name))
			}
		case !sessionFile(name):
		case !t.IsRegular():
			w.onErr(child, notRegular(t))
		default:
			if w.seen[filepath.Join(real, name)] {
				continue
			}
			w.seen[filepath.Join(real, name)] = true
			info, err := e.Info()
			if err != nil {
				w.onErr(child, err)
				continue
			}
			w.fn(candidateFile{path: child, info: info})
		}
	}
}

// skipDir leaves out what holds no sessions: spilled tool output, VCS
// data, and opencode's message and part folders, which are read through
// their session file.
func skipDir(p, name string) bool {
	switch name {
	case "tool-results", ".git", "node_modules":
		return true
	case "message", "part":
		_, err := os.Stat(filepath.Join(filepath.Dir(p), "session"))
		return err == nil
	}
	return false
}

func sessionFile(name string) bool {
	if strings.HasSuffix(name, ".meta.json") || name == "history.jsonl" || name == "logs.json" {
		return false
	}
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json") || isOpencodeDB(name)
}
