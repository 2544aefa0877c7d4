package repo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
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

// commit stages paths and commits them; the caller holds the lock.
func (s Store) commit(repo *git.Repository, message string, paths []string) (plumbing.Hash, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for _, p := range paths {
		rel, err := s.relative(p)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if err := wt.AddWithOptions(&git.AddOptions{Path: rel, SkipStatus: true}); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("staging %s: %w", rel, err)
		}
	}
	sig := signature(repo)
	h, err := wt.Commit(message, &git.CommitOptions{Author: sig, Committer: sig})
	if errors.Is(err, git.ErrEmptyCommit) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("committing %q: %w", message, err)
	}
	return h, nil
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
