package repo

import (
	"fmt"

	"github.com/go-git/go-git/v5"
)

// Change makes one change to a file of the store as one commit: under the
// store's lock it runs write, which writes or removes a file and returns
// its path, and commits that path with message. It creates the store if
// needed. A write that fails changes nothing; one that leaves the file as
// it was makes no commit.
func (s Store) Change(message string, write func() (path string, err error)) (string, error) {
	if err := s.EnsureInit(); err != nil {
		return "", err
	}
	repo, err := git.PlainOpen(s.Dir)
	if err != nil {
		return "", fmt.Errorf("opening the lessons store %s: %w", s.Dir, err)
	}
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	path, err := write()
	if err != nil {
		return "", err
	}
	if _, err := s.commit(repo, message, []string{path}); err != nil {
		return path, fmt.Errorf("the change is written but not committed: %w", err)
	}
	return path, nil
}
