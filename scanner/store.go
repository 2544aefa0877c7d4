package scanner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lessons-dev/lessons/scope"
)

// ErrNotFound is returned for an id that names no candidate.
var ErrNotFound = errors.New("no such candidate")

// ErrAmbiguous is returned for an id prefix that names several candidates.
var ErrAmbiguous = errors.New("candidate id prefix is ambiguous")

// Store holds candidates as one JSON file each under
// <state>/candidates/<id>.json, written atomically. Its changes take the
// scan lock, so a review never races a scan.
type Store struct {
	state string
	// LockTimeout bounds the wait for a running scan (default 10s).
	LockTimeout time.Duration
}

// OpenStore returns the store in a state directory (the scanner's part of
// $XDG_STATE_HOME/lessons). Nothing is created until something is written.
func OpenStore(stateDir string) *Store { return &Store{state: stateDir, LockTimeout: 10 * time.Second} }

func (s *Store) dir() string { return filepath.Join(s.state, candidatesSubdir) }

// Dir is the directory that holds the candidate files: every change to
// the store adds, replaces or removes one there.
func (s *Store) Dir() string { return s.dir() }

// ListOptions filter List.
type ListOptions struct {
	// Status keeps candidates with this status; "" keeps new ones, and
	// All keeps every one.
	Status Status
	All    bool
}

// List returns candidates by priority, then confidence, then last seen,
// with weak ones (Signals.Weak) after all the others.
// A file that does not parse is skipped.
func (s *Store) List(opts ListOptions) ([]Candidate, error) {
	all, err := s.load()
	if err != nil {
		return nil, err
	}
	want := cmp.Or(opts.Status, StatusNew)
	var out []Candidate
	for _, c := range all {
		if opts.All || c.Status == want {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, ReviewOrder)
	return out, nil
}

// ReviewOrder orders candidates the most important first, as List lists
// them and the hook keeps its reminders: strong signals, then priority,
// confidence and the latest seen.
func ReviewOrder(a, b Candidate) int {
	return cmp.Or(compareBool(a.Signals.Weak(), b.Signals.Weak()), cmp.Compare(b.Priority, a.Priority), cmp.Compare(b.Confidence, a.Confidence),
		b.LastSeen.Compare(a.LastSeen), cmp.Compare(a.ID, b.ID))
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func (s *Store) load() ([]Candidate, error) {
	ents, err := os.ReadDir(s.dir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list candidates: %w", err)
	}
	var out []Candidate
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if c, err := s.read(strings.TrimSuffix(e.Name(), ".json")); err == nil {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *Store) read(id string) (Candidate, error) {
	var c Candidate
	b, err := os.ReadFile(filepath.Join(s.dir(), id+".json"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return c, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("candidate %s: %w", id, err)
	}
	return c, nil
}

// Get returns the candidate with this id or unique id prefix. It returns
// ErrNotFound or ErrAmbiguous.
func (s *Store) Get(id string) (Candidate, error) {
	id = strings.TrimSpace(id)
	if c, err := s.read(id); err == nil || !errors.Is(err, ErrNotFound) || id == "" {
		return c, err
	}
	ents, _ := os.ReadDir(s.dir())
	var match string
	for _, e := range ents {
		if name := strings.TrimSuffix(e.Name(), ".json"); strings.HasPrefix(name, id) {
			if match != "" {
				return Candidate{}, fmt.Errorf("%w: %s (try more characters)", ErrAmbiguous, id)
			}
			match = name
		}
	}
	if match == "" {
		return Candidate{}, fmt.Errorf("%w: %s (see lessons candidates)", ErrNotFound, id)
	}
	return s.read(match)
}

func (s *Store) write(c Candidate) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir(), 0o700); err != nil {
		return err
	}
	return scope.WriteFileAtomic(filepath.Join(s.dir(), c.ID+".json"), append(b, '\n'), 0o600)
}

// update applies fn to each candidate under the lock and writes it back.
func (s *Store) update(ids []string, fn func(*Candidate)) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.LockTimeout)
	defer cancel()
	l, err := lockState(ctx, s.state, true)
	if err != nil {
		return err
	}
	defer l.Unlock()
	for _, id := range ids {
		c, err := s.Get(id)
		if err != nil {
			return err
		}
		fn(&c)
		if err := s.write(c); err != nil {
			return fmt.Errorf("candidate %s: %w", c.ID, err)
		}
	}
	return nil
}

// Reject marks candidates rejected: they are no longer listed, and seeing
// the same mistake again does not bring them back.
func (s *Store) Reject(ids ...string) error {
	return s.update(ids, func(c *Candidate) { c.Status = StatusRejected })
}

// MarkPromoted records that a candidate became the lesson lessonID.
func (s *Store) MarkPromoted(id, lessonID string) error {
	return s.update([]string{id}, func(c *Candidate) { c.Status, c.LessonID = StatusPromoted, lessonID })
}
