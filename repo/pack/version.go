package pack

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
)

// Limits on a pack version, which is untrusted input.
const (
	MaxLessons   = 5000
	MaxFileBytes = repo.MaxFileSize
	// MaxPackBytes caps the lesson files of one version together.
	MaxPackBytes = 32 << 20
)

// MetaFile describes a pack; it is optional, and checked when present.
const MetaFile = "pack.yaml"

// LessonsDir is the pack directory holding its lessons; nothing else of a
// pack is ever read as a lesson or written to the cache.
const LessonsDir = "lessons"

// Version is the lessons of one commit of a pack.
type Version struct {
	Commit string
	// Files maps "lessons/<slug>.yaml" to the file's content.
	Files map[string][]byte
	// Hash is the h1 hash of Files, as lessons.lock records it.
	Hash string
}

// isLessonName reports whether a file directly in lessons/ is a lesson:
// YAML and not hidden, as the loader reads it.
func isLessonName(name string) bool {
	return !strings.HasPrefix(name, ".") && slugOf(name) != name
}

func slugOf(name string) string {
	for _, ext := range []string{".yaml", ".yml"} {
		if s, ok := strings.CutSuffix(name, ext); ok {
			return s
		}
	}
	return name
}

// readVersion reads the lessons of commit h from the clone, enforcing the
// pack rules on the whole tree first: no symbolic links or submodules
// anywhere, lessons only directly in lessons/, each at most MaxFileBytes,
// at most MaxLessons of them. Contents are read only from a tree that
// passes. Problems are returned as a *ValidationError.
func (c *clone) readVersion(h plumbing.Hash) (*Version, error) {
	cm, err := c.commit(h)
	if err != nil {
		return nil, err
	}
	tree, err := cm.Tree()
	if err != nil {
		return nil, fmt.Errorf("reading the tree of %s: %w", short(h.String()), err)
	}
	verr := &ValidationError{Commit: h.String()}
	blobs := map[string]plumbing.Hash{}
	total := int64(0)
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	for {
		name, entry, err := walker.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the tree of %s: %w", short(h.String()), err)
		}
		rest, inLessons := strings.CutPrefix(name, LessonsDir+"/")
		switch {
		case entry.Mode == filemode.Symlink:
			verr.add(name, "is a symbolic link; packs may not hold links")
		case entry.Mode == filemode.Submodule:
			verr.add(name, "is a submodule; packs may not hold submodules")
		case name == LessonsDir && entry.Mode != filemode.Dir:
			verr.add(name, "must be a directory of lesson files")
		case name == MetaFile:
			verr.Problems = append(verr.Problems, c.checkMeta(entry.Hash)...)
		case !inLessons:
		case strings.Contains(rest, "/"):
			// Reported once, on the directory entry that holds it.
		case entry.Mode == filemode.Dir:
			verr.add(name, "is a directory; lessons are read only from lessons/*.yaml, so its files would land outside lessons/")
		case !isLessonName(rest):
		case !safeName(rest):
			verr.add(name, "has a file name that is not a plain lesson slug")
		default:
			blob, err := object.GetBlob(c.repo.Storer, entry.Hash)
			if err != nil {
				return nil, fmt.Errorf("reading %s at %s: %w", name, short(h.String()), err)
			}
			if blob.Size > MaxFileBytes {
				verr.add(name, fmt.Sprintf("is %d bytes, more than the %d a lesson file may have", blob.Size, MaxFileBytes))
				continue
			}
			total += blob.Size
			blobs[name] = entry.Hash
		}
	}
	if len(blobs) > MaxLessons {
		verr.add(LessonsDir, fmt.Sprintf("holds %d lessons, more than the %d a pack may have", len(blobs), MaxLessons))
	}
	if total > MaxPackBytes {
		verr.add(LessonsDir, fmt.Sprintf("holds %d bytes of lessons, more than the %d a pack may have", total, MaxPackBytes))
	}
	if len(verr.Problems) > 0 {
		return nil, verr
	}
	files := make(map[string][]byte, len(blobs))
	for name, bh := range blobs {
		data, err := c.blob(bh)
		if err != nil {
			return nil, fmt.Errorf("reading %s at %s: %w", name, short(h.String()), err)
		}
		files[name] = data
	}
	return newVersion(h.String(), files)
}

// newVersion checks every lesson of files and hashes them.
func newVersion(commit string, files map[string][]byte) (*Version, error) {
	if problems := Check(files); len(problems) > 0 {
		return nil, &ValidationError{Commit: commit, Problems: problems}
	}
	hash, err := HashFiles(files)
	if err != nil {
		return nil, err
	}
	return &Version{Commit: commit, Files: files, Hash: hash}, nil
}

// checkMeta checks pack.yaml against its schema and returns each
// problem, placed at its line.
func (c *clone) checkMeta(h plumbing.Hash) []string {
	data, err := c.blob(h)
	if err != nil {
		return []string{MetaFile + ": " + err.Error()}
	}
	var meta Meta
	err = repo.Decode(repo.PackSchema, MetaFile, data, &meta)
	var ps repo.Problems
	if !errors.As(err, &ps) {
		if err != nil {
			return []string{MetaFile + ": " + err.Error()}
		}
		if meta.MinVersion != "" && !lessons.Supports(meta.MinVersion) {
			return []string{fmt.Sprintf("%s: the pack needs lessons %s or newer, and this is %s: upgrade lessons",
				MetaFile, meta.MinVersion, lessons.Version)}
		}
		return nil
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Error()
	}
	return out
}

func (c *clone) blob(h plumbing.Hash) ([]byte, error) {
	blob, err := object.GetBlob(c.repo.Storer, h)
	if err != nil {
		return nil, err
	}
	r, err := blob.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
}

// safeName reports whether a lesson file name can be written as is: no
// path separators, control characters or leading dot.
func safeName(name string) bool {
	if name == "" || strings.HasPrefix(name, ".") {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' || r == ':' {
			return false
		}
	}
	return true
}

// ValidationError is why a pack version may not become active. Each
// problem names the file at fault.
type ValidationError struct {
	Commit   string
	Problems []string
}

func (e *ValidationError) add(file, why string) {
	e.Problems = append(e.Problems, file+": "+why)
}

// maxShownProblems caps the problems an error message lists.
const maxShownProblems = 20

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "version %s is invalid", short(e.Commit))
	for i, p := range e.Problems {
		if i == maxShownProblems {
			fmt.Fprintf(&b, "\n  … and %d more", len(e.Problems)-i)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(p)
	}
	return b.String()
}
