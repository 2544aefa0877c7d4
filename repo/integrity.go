package repo

import (
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
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// StoreProblem is something wrong with the global store's repository:
// what, and what to do about it.
type StoreProblem struct {
	Problem string
	Fix     string
}

func (p StoreProblem) Error() string { return p.Problem }

// recoverMessage starts the message of the commit that saves changes an
// interrupted command left uncommitted.
const recoverMessage = "recover uncommitted changes"

// Check reports what is wrong with the store's repository: a HEAD that
// does not resolve (an empty or lost branch ref), an unreadable index,
// lock files left by a killed writer, and lesson files or config.yaml
// that differ from the last commit (a command killed between writing a
// file and committing it, or a hand edit). A store that does not exist
// has no problems.
func (s Store) Check() []StoreProblem {
	if _, err := os.Stat(filepath.Join(s.Dir, ".git")); err != nil {
		return nil
	}
	var out []StoreProblem
	repo, err := git.PlainOpen(s.Dir)
	if err != nil {
		return []StoreProblem{{fmt.Sprintf("the store %s is not a readable git repository: %v", s.Dir, err),
			"move it aside and run lessons init; copy your lesson files back with lessons add --file"}}
	}
	head, herr := s.headCommit(repo)
	if herr != nil {
		out = append(out, StoreProblem{fmt.Sprintf("HEAD does not resolve: %v", herr),
			"run lessons doctor --fix to point the branch at the newest commit"})
	}
	if _, err := repo.Storer.Index(); err != nil {
		out = append(out, StoreProblem{fmt.Sprintf("the index (.git/index) is unreadable: %v", err),
			"run lessons doctor --fix to rebuild it from the last commit"})
	}
	for _, l := range s.staleLocks() {
		out = append(out, StoreProblem{fmt.Sprintf("%s was left by a writer that died", l),
			"run lessons doctor --fix to remove it"})
	}
	if temps := s.strayTemps(); len(temps) > 0 {
		out = append(out, StoreProblem{"half-written files of an interrupted command: " + strings.Join(temps, ", "),
			"run lessons doctor --fix to remove them"})
	}
	if herr == nil {
		if changed, err := s.uncommitted(head); err != nil {
			out = append(out, StoreProblem{fmt.Sprintf("comparing the files with the last commit: %v", err), "check the store with git status"})
		} else if len(changed) > 0 {
			out = append(out, StoreProblem{"changes not committed (an interrupted command, or a hand edit): " + strings.Join(changed, ", "),
				"run lessons doctor --fix to commit them, or git -C " + s.Dir + " checkout -- FILE to drop one"})
		}
		if stale := s.staleEntries(repo, head); len(stale) > 0 {
			out = append(out, StoreProblem{"the index lags the last commit (an interrupted command): " + strings.Join(stale, ", "),
				"run lessons doctor --fix to update it"})
		}
	}
	return out
}

// staleEntries are the lesson files and config.yaml whose file matches
// head but whose index entry does not: a command killed between moving
// the branch and writing the index.
func (s Store) staleEntries(repo *git.Repository, head *object.Commit) []string {
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil
	}
	tree, err := head.Tree()
	if err != nil {
		return nil
	}
	inIndex := map[string]plumbing.Hash{}
	for _, e := range idx.Entries {
		inIndex[e.Name] = e.Hash
	}
	var out []string
	_ = tree.Files().ForEach(func(f *object.File) error {
		if f.Name != "config.yaml" && !strings.HasPrefix(f.Name, "lessons/") || inIndex[f.Name] == f.Hash {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(s.Dir, filepath.FromSlash(f.Name)))
		if err == nil && plumbing.ComputeHash(plumbing.BlobObject, data) == f.Hash {
			out = append(out, f.Name)
		}
		return nil
	})
	for name := range inIndex {
		if _, err := tree.File(name); err != nil && (name == "config.yaml" || strings.HasPrefix(name, "lessons/")) {
			if _, serr := os.Stat(filepath.Join(s.Dir, filepath.FromSlash(name))); errors.Is(serr, fs.ErrNotExist) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Repair fixes what Check finds, in order: stale lock files, the branch
// (pointed at the newest commit, the tip no other commit descends from),
// the index (rebuilt from HEAD, keeping nothing of the broken one), and
// uncommitted lesson and config changes (committed). It returns what it
// did.
func (s Store) Repair() ([]string, error) {
	repo, err := git.PlainOpen(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("opening the lessons store %s: %w", s.Dir, err)
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	var did []string
	for _, l := range s.staleLocks() {
		if err := os.Remove(filepath.Join(s.Dir, ".git", l)); err != nil {
			return did, err
		}
		did = append(did, "removed "+l)
	}
	for _, t := range s.strayTemps() {
		if err := os.Remove(filepath.Join(s.Dir, filepath.FromSlash(t))); err != nil {
			return did, err
		}
		did = append(did, "removed "+t)
	}
	head, err := s.headCommit(repo)
	if err != nil {
		tip, terr := newestTip(repo)
		if terr != nil {
			return did, fmt.Errorf("HEAD does not resolve and no commit to point it at: %w", terr)
		}
		if err := s.writeRef(plumbing.Main, tip.Hash); err != nil {
			return did, err
		}
		if err := s.writeReplace(filepath.Join(s.Dir, ".git", "HEAD"), func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "ref: %s\n", plumbing.Main)
			return err
		}); err != nil {
			return did, err
		}
		head = tip
		did = append(did, fmt.Sprintf("pointed %s at %s (%s)", plumbing.Main.Short(), tip.Hash.String()[:7], firstLine(tip.Message)))
	}
	if _, err := repo.Storer.Index(); err != nil {
		if err := s.rebuildIndex(head); err != nil {
			return did, fmt.Errorf("rebuilding the index: %w", err)
		}
		did = append(did, "rebuilt the index from the last commit")
	}
	if stale := s.staleEntries(repo, head); len(stale) > 0 {
		var entries []index.Entry
		for _, name := range stale {
			e, _, err := s.stageFile(repo, name)
			if err != nil {
				return did, err
			}
			entries = append(entries, e)
		}
		if err := s.updateIndex(repo, entries); err != nil {
			return did, err
		}
		did = append(did, "updated the index for "+strings.Join(stale, ", "))
	}
	changed, err := s.uncommitted(head)
	if err != nil {
		return did, err
	}
	if len(changed) > 0 {
		if _, err := s.commit(repo, recoverMessage+": "+strings.Join(changed, ", "), changed); err != nil {
			return did, err
		}
		did = append(did, "committed "+strings.Join(changed, ", "))
	}
	return did, nil
}

func (s Store) headCommit(repo *git.Repository) (*object.Commit, error) {
	ref, err := repo.Head()
	if err != nil {
		return nil, err
	}
	return repo.CommitObject(ref.Hash())
}

// staleLocks are git lock files in .git older than a minute, and the
// temporary files of writers that were killed.
func (s Store) staleLocks() []string {
	var out []string
	gitDir := filepath.Join(s.Dir, ".git")
	names := []string{"index.lock", "HEAD.lock", filepath.FromSlash(plumbing.Main.String()) + ".lock"}
	temps, _ := filepath.Glob(filepath.Join(gitDir, tempPrefix+"*"))
	for _, t := range temps {
		names = append(names, filepath.Base(t))
	}
	for _, l := range names {
		if fi, err := os.Stat(filepath.Join(gitDir, l)); err == nil && time.Since(fi.ModTime()) > time.Minute {
			out = append(out, l)
		}
	}
	return out
}

// strayTemps are, relative to the store, the temporary files
// WriteFileAtomic writes beside a lesson file or config.yaml and that a
// killed command left behind (".NAME.tmp…").
func (s Store) strayTemps() []string {
	var out []string
	for _, dir := range []string{".", "lessons"} {
		entries, _ := os.ReadDir(filepath.Join(s.Dir, dir))
		for _, e := range entries {
			if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp") {
				out = append(out, path.Join(dir, n))
			}
		}
	}
	return out
}

// uncommitted lists, relative to the store, the lesson files and
// config.yaml whose content differs from head's, or that head has and
// the worktree lost.
func (s Store) uncommitted(head *object.Commit) ([]string, error) {
	tree, err := head.Tree()
	if err != nil {
		return nil, err
	}
	want := map[string]plumbing.Hash{}
	err = tree.Files().ForEach(func(f *object.File) error {
		if f.Name == "config.yaml" || strings.HasPrefix(f.Name, "lessons/") {
			want[f.Name] = f.Hash
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	have := map[string]plumbing.Hash{}
	entries, err := os.ReadDir(s.LessonsDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	names := []string{"config.yaml"}
	for _, e := range entries {
		if e.Type().IsRegular() && isLessonFile(e.Name()) {
			names = append(names, "lessons/"+e.Name())
		}
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(s.Dir, filepath.FromSlash(n)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		have[n] = plumbing.ComputeHash(plumbing.BlobObject, data)
	}
	var out []string
	for n, h := range have {
		if want[n] != h {
			out = append(out, n)
		}
	}
	for n := range want {
		if _, ok := have[n]; !ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// newestTip is the commit no other commit names as a parent, the newest
// if there are several: where the branch pointed before it was lost.
func newestTip(repo *git.Repository) (*object.Commit, error) {
	iter, err := repo.CommitObjects()
	if err != nil {
		return nil, err
	}
	var all []*object.Commit
	parents := map[plumbing.Hash]bool{}
	err = iter.ForEach(func(c *object.Commit) error {
		all = append(all, c)
		for _, p := range c.ParentHashes {
			parents[p] = true
		}
		return nil
	})
	if err != nil && !errors.Is(err, storer.ErrStop) {
		return nil, err
	}
	var tip *object.Commit
	for _, c := range all {
		if !parents[c.Hash] && (tip == nil || c.Committer.When.After(tip.Committer.When)) {
			tip = c
		}
	}
	if tip == nil {
		return nil, errors.New("the repository has no commits")
	}
	return tip, nil
}

// rebuildIndex writes an index holding head's files.
func (s Store) rebuildIndex(head *object.Commit) error {
	idx := &index.Index{Version: 2}
	tree, err := head.Tree()
	if err != nil {
		return err
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		e := &index.Entry{Name: f.Name, Hash: f.Hash, Mode: f.Mode}
		if f.Mode == filemode.Empty {
			e.Mode = filemode.Regular
		}
		// Stat data only for a file that holds what the commit does: git
		// trusts matching stat data and would hide a difference.
		full := filepath.Join(s.Dir, filepath.FromSlash(f.Name))
		if data, err := os.ReadFile(full); err == nil && plumbing.ComputeHash(plumbing.BlobObject, data) == f.Hash {
			if fi, err := os.Stat(full); err == nil {
				e.Size, e.ModifiedAt = uint32(fi.Size()), fi.ModTime()
			}
		}
		idx.Entries = append(idx.Entries, e)
		return nil
	})
	if err != nil {
		return err
	}
	return s.writeIndex(idx)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
