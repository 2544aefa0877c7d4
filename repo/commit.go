package repo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit records the current state of paths (absolute, or relative to
// the store; a deleted path records its removal) as one commit with the
// given message, as disable and enable do after WriteConfig. It returns
// the commit's hash, or the zero hash when the paths did not change.
func (s Store) Commit(message string, paths ...string) (plumbing.Hash, error) {
	repo, err := git.PlainOpen(s.Dir)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("opening the lessons store %s: %w", s.Dir, err)
	}
	unlock, err := s.lock()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer unlock()
	return s.commit(repo, message, paths)
}

// commit commits the worktree's state of paths, and only of paths (git's
// commit --only): whatever else the user staged stays staged and out of
// the commit. It survives a kill at any point: objects are written beside
// and renamed into place by go-git, and the branch and the index, which
// go-git rewrites in place, are written here beside and renamed over the
// old ones. A kill leaves the old commit or the new one,
// never an empty branch or index. The caller holds the lock.
func (s Store) commit(repo *git.Repository, message string, paths []string) (plumbing.Hash, error) {
	head, err := repo.Head()
	var parent *object.Commit
	switch {
	case err == nil:
		if parent, err = repo.CommitObject(head.Hash()); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading the store's last commit: %w", err)
		}
	case errors.Is(err, plumbing.ErrReferenceNotFound):
	default:
		return plumbing.ZeroHash, fmt.Errorf("reading the store's HEAD: %w", err)
	}
	var root plumbing.Hash
	if parent != nil {
		root = parent.TreeHash
	}
	changed := false
	var entries []index.Entry
	for _, p := range paths {
		rel, err := s.relative(p)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entry, blob, err := s.stageFile(repo, rel)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("staging %s: %w", rel, err)
		}
		next, err := setPath(repo, root, strings.Split(rel, "/"), blob)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("staging %s: %w", rel, err)
		}
		changed = changed || next != root
		root = next
		entries = append(entries, entry)
	}
	if !changed && parent != nil {
		return plumbing.ZeroHash, nil
	}
	sig := signature(repo)
	c := &object.Commit{Author: *sig, Committer: *sig, Message: message, TreeHash: root}
	if parent != nil {
		c.ParentHashes = []plumbing.Hash{parent.Hash}
	}
	obj := repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("committing %q: %w", message, err)
	}
	branch := plumbing.Main
	if ref, err := repo.Storer.Reference(plumbing.HEAD); err == nil && ref.Type() == plumbing.SymbolicReference {
		branch = ref.Target()
	}
	if err := s.writeRef(branch, h); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("committing %q: %w", message, err)
	}
	// The commit is made; an index left behind only shows as a change in
	// git status, which the next commit or doctor --fix puts right.
	if err := s.updateIndex(repo, entries); err != nil {
		return h, fmt.Errorf("committed %q, but updating the index: %w", message, err)
	}
	return h, nil
}

// stageFile writes the worktree's file rel as a blob and returns its
// index entry; a file that does not exist returns an entry with no hash
// and the zero blob, meaning removal.
func (s Store) stageFile(repo *git.Repository, rel string) (index.Entry, plumbing.Hash, error) {
	full := filepath.Join(s.Dir, filepath.FromSlash(rel))
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return index.Entry{Name: rel}, plumbing.ZeroHash, nil
	}
	if err != nil {
		return index.Entry{}, plumbing.ZeroHash, err
	}
	if !fi.Mode().IsRegular() {
		return index.Entry{}, plumbing.ZeroHash, fmt.Errorf("not a regular file (%v)", fi.Mode().Type())
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return index.Entry{}, plumbing.ZeroHash, err
	}
	obj := repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return index.Entry{}, plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return index.Entry{}, plumbing.ZeroHash, err
	}
	w.Close()
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return index.Entry{}, plumbing.ZeroHash, err
	}
	mode := filemode.Regular
	if fi.Mode()&0o111 != 0 {
		mode = filemode.Executable
	}
	return index.Entry{
		Name: rel, Hash: h, Mode: mode, Size: uint32(fi.Size()),
		ModifiedAt: fi.ModTime(), CreatedAt: fi.ModTime(),
	}, h, nil
}

// setPath returns the tree that is root with the file at parts set to
// blob (the zero hash removes it), writing the trees that changed.
func setPath(repo *git.Repository, root plumbing.Hash, parts []string, blob plumbing.Hash) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	if !root.IsZero() {
		t, err := repo.TreeObject(root)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = slices.Clone(t.Entries)
	}
	i := slices.IndexFunc(entries, func(e object.TreeEntry) bool { return e.Name == parts[0] })
	var next object.TreeEntry
	switch {
	case len(parts) == 1 && blob.IsZero():
		if i < 0 {
			return root, nil
		}
		entries = slices.Delete(entries, i, i+1)
	case len(parts) == 1:
		next = object.TreeEntry{Name: parts[0], Mode: filemode.Regular, Hash: blob}
	default:
		var sub plumbing.Hash
		if i >= 0 && entries[i].Mode == filemode.Dir {
			sub = entries[i].Hash
		}
		h, err := setPath(repo, sub, parts[1:], blob)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if h == sub {
			return root, nil
		}
		if h.IsZero() {
			entries = slices.Delete(entries, i, i+1)
		} else {
			next = object.TreeEntry{Name: parts[0], Mode: filemode.Dir, Hash: h}
		}
	}
	if next.Name != "" {
		if i >= 0 {
			entries[i] = next
		} else {
			entries = append(entries, next)
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, nil
	}
	// git orders a tree's entries by name, a directory's as if it ended in /.
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	slices.SortFunc(entries, func(a, b object.TreeEntry) int { return strings.Compare(key(a), key(b)) })
	obj := repo.Storer.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return repo.Storer.SetEncodedObject(obj)
}

// writeRef points branch at h through a lock file renamed over the ref.
func (s Store) writeRef(branch plumbing.ReferenceName, h plumbing.Hash) error {
	return s.writeReplace(filepath.Join(s.Dir, ".git", filepath.FromSlash(branch.String())), func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s\n", h)
		return err
	})
}

// updateIndex sets the index entries of the committed paths (an entry
// without hash removes its path) and keeps every other entry as it was,
// staged changes included. A missing or unreadable index is rebuilt from
// the new commit for those paths only.
func (s Store) updateIndex(repo *git.Repository, entries []index.Entry) error {
	idx, err := repo.Storer.Index()
	if err != nil {
		idx = &index.Index{Version: 2}
	}
	for _, e := range entries {
		i := slices.IndexFunc(idx.Entries, func(x *index.Entry) bool { return x.Name == e.Name })
		switch {
		case e.Hash.IsZero() && i >= 0:
			idx.Entries = slices.Delete(idx.Entries, i, i+1)
		case e.Hash.IsZero():
		case i >= 0:
			*idx.Entries[i] = e
		default:
			idx.Entries = append(idx.Entries, &e)
		}
	}
	slices.SortFunc(idx.Entries, func(a, b *index.Entry) int { return strings.Compare(a.Name, b.Name) })
	idx.Cache = nil // the cached trees no longer hold
	return s.writeIndex(idx)
}

// writeIndex replaces the store's index with idx.
func (s Store) writeIndex(idx *index.Index) error {
	return s.writeReplace(filepath.Join(s.Dir, ".git", "index"), func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := index.NewEncoder(bw).Encode(idx); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// tempPrefix names the files writeReplace writes before renaming them;
// one a killed command left behind is garbage that Repair removes.
const tempPrefix = "lessons-tmp-"

// writeReplace replaces the file at p (inside the store's .git) with what
// write writes: into a new file at the top of .git (not beside a ref,
// where git would read it as a branch), synced, then renamed over p. The
// caller holds the store's lock, so writers do not race; a lock file
// that git or a killed command left does not stop it.
func (s Store) writeReplace(p string, write func(io.Writer) error) (err error) {
	gitDir := filepath.Join(s.Dir, ".git")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(gitDir, tempPrefix+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), p); err != nil {
		return fmt.Errorf("replacing %s: %w", path.Base(p), err)
	}
	return nil
}

// relative turns a path into one relative to the store, with slashes as
// git wants them. A path is absolute, under s.Dir as written (as
// LessonsDir and ConfigPath return them), or relative to the store; one
// outside the store is an error.
func (s Store) relative(p string) (string, error) {
	dir := filepath.Clean(s.Dir)
	switch {
	case filepath.IsAbs(p):
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if p, err = filepath.Rel(abs, p); err != nil {
			return "", err
		}
	case strings.HasPrefix(filepath.Clean(p), dir+string(filepath.Separator)):
		p = strings.TrimPrefix(filepath.Clean(p), dir+string(filepath.Separator))
	}
	p = filepath.Clean(p)
	if p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the lessons store %s", p, s.Dir)
	}
	return filepath.ToSlash(p), nil
}

// Fallbacks for the commit author when git has no user configured.
const (
	defaultAuthorName  = "lessons"
	defaultAuthorEmail = "lessons@localhost"
)

// signature is the user from the repository's and the global git config
// (~/.gitconfig), else "lessons <lessons@localhost>".
func signature(repo *git.Repository) *object.Signature {
	sig := &object.Signature{Name: defaultAuthorName, Email: defaultAuthorEmail, When: time.Now()}
	if cfg, err := repo.ConfigScoped(config.GlobalScope); err == nil {
		if cfg.User.Name != "" {
			sig.Name = cfg.User.Name
		}
		if cfg.User.Email != "" {
			sig.Email = cfg.User.Email
		}
	}
	return sig
}
