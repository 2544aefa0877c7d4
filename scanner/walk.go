package scanner

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// candidateFile is a file the walk found, with its lstat.
type candidateFile struct {
	path string
	info fs.FileInfo
}

// walk lists the session files under paths. Missing paths are ignored;
// other errors are counted by the caller through onErr.
func walk(paths []string, onErr func(path string, err error), fn func(candidateFile)) {
	seen := map[string]bool{}
	for _, root := range paths {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if !os.IsNotExist(err) {
					onErr(p, err)
				}
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if p != root && skipDir(p, name) {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || seen[p] || !sessionFile(name) {
				return nil
			}
			seen[p] = true
			info, err := d.Info()
			if err != nil {
				onErr(p, err)
				return nil
			}
			fn(candidateFile{path: p, info: info})
			return nil
		})
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
