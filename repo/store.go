package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/gofrs/flock"

	"github.com/lessons-dev/lessons/scope"
)

// Store is the global store ($LESSONS_HOME): a git repository holding
// lessons/*.yaml and config.yaml, in which every change the CLI makes is
// exactly one commit. Project stores are never committed: write them with
// WriteLesson, CreateLesson, RemoveLesson and WriteConfig.
type Store struct {
	Dir string
}

// LessonsDir is the directory of the store's lesson files.
func (s Store) LessonsDir() string { return filepath.Join(s.Dir, "lessons") }

// ConfigPath is the store's config file.
func (s Store) ConfigPath() string { return filepath.Join(s.Dir, "config.yaml") }

// initMessage is the message of a store's first commit.
const initMessage = "initialize lessons store"

// Init creates whatever the store lacks: its directories, a commented
// default config.yaml, the git repository (branch main) and a first
// commit. It reports whether it created anything; on a complete store it
// changes nothing.
func (s Store) Init() (created bool, err error) {
	if err := os.MkdirAll(s.LessonsDir(), 0o755); err != nil {
		return false, err
	}
	repo, err := git.PlainInitWithOptions(s.Dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.Main},
	})
	switch {
	case err == nil:
		created = true
	case errors.Is(err, git.ErrRepositoryAlreadyExists):
		if repo, err = git.PlainOpen(s.Dir); err != nil {
			return false, fmt.Errorf("opening the lessons store %s: %w", s.Dir, err)
		}
	default:
		return false, fmt.Errorf("creating the lessons store %s: %w", s.Dir, err)
	}
	unlock, err := s.lock()
	if err != nil {
		return created, err
	}
	defer unlock()
	message := initMessage
	if _, err := repo.Head(); err == nil {
		message = "restore the default config.yaml"
	} else if !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return created, err
	} else {
		created = true
	}
	if _, err := os.Stat(s.ConfigPath()); errors.Is(err, fs.ErrNotExist) {
		if err := scope.WriteFileAtomic(s.ConfigPath(), DefaultConfigFile(), 0o644); err != nil {
			return created, err
		}
		created = true
	}
	if created {
		if _, err := s.commit(repo, message, []string{s.ConfigPath()}); err != nil {
			return created, err
		}
	}
	return created, nil
}

// EnsureInit makes sure the store exists, creating it on a command's
// first need; once it exists this costs one stat.
func (s Store) EnsureInit() error {
	if _, err := os.Stat(filepath.Join(s.Dir, ".git")); err == nil {
		return nil
	}
	_, err := s.Init()
	return err
}

// lock serializes the store's writers, so that concurrent commands each
// make their own commit. The lock file lives in .git, out of the worktree.
func (s Store) lock() (unlock func(), err error) {
	fl := flock.New(filepath.Join(s.Dir, ".git", "lessons-write.lock"))
	if err := fl.Lock(); err != nil {
		return nil, fmt.Errorf("locking the lessons store: %w", err)
	}
	return func() { _ = fl.Unlock() }, nil
}
