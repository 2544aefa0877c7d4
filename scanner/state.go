package scanner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/google/renameio/v2"
)

// Layout of the scanner's part of the state directory.
const (
	stateSubdir      = "scanner"
	stateFile        = "state.json"
	lockFile         = "scan.lock"
	candidatesSubdir = "candidates"
	stateVersion     = 1
)

// ErrBusy is returned when another scan (or a review command) holds the
// state lock and the caller did not ask to wait.
var ErrBusy = errors.New("another lessons scan is running")

// fileState is what a scan remembers of one file.
type fileState struct {
	Format  Format  `json:"format"`
	Size    int64   `json:"size"`
	MtimeNs int64   `json:"mtime"`
	Inode   uint64  `json:"inode,omitempty"`
	Offset  int64   `json:"offset,omitempty"` // where the next read starts
	Line    int     `json:"line,omitempty"`   // lines before Offset
	Session Session `json:"session,omitzero"`
	// Pending is set when the session was still being written: some
	// failures wait for a retry or a correction, so the file is read
	// again (from Offset) once it has been idle.
	Pending bool `json:"pending,omitempty"`
}

// scanState is every file's state.
type scanState struct {
	Version int                   `json:"version"`
	Files   map[string]*fileState `json:"files"`
}

func loadState(dir string) (*scanState, error) {
	st := &scanState{Version: stateVersion, Files: map[string]*fileState{}}
	b, err := os.ReadFile(filepath.Join(dir, stateSubdir, stateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read scan state: %w", err)
	}
	if err := json.Unmarshal(b, st); err != nil || st.Version != stateVersion || st.Files == nil {
		// A damaged or older state only costs a full scan; merging
		// candidates is idempotent.
		return &scanState{Version: stateVersion, Files: map[string]*fileState{}}, nil
	}
	return st, nil
}

func saveState(dir string, st *scanState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, stateSubdir), 0o700); err != nil {
		return fmt.Errorf("write scan state: %w", err)
	}
	if err := renameio.WriteFile(filepath.Join(dir, stateSubdir, stateFile), b, 0o600); err != nil {
		return fmt.Errorf("write scan state: %w", err)
	}
	return nil
}

// lockState takes the state directory's lock. With wait it retries until
// ctx ends; without, it fails at once with ErrBusy.
func lockState(ctx context.Context, dir string, wait bool) (*flock.Flock, error) {
	if err := os.MkdirAll(filepath.Join(dir, stateSubdir), 0o700); err != nil {
		return nil, fmt.Errorf("create state directory: %w", err)
	}
	l := flock.New(filepath.Join(dir, stateSubdir, lockFile))
	var ok bool
	var err error
	if wait {
		ok, err = l.TryLockContext(ctx, 50*time.Millisecond)
	} else {
		ok, err = l.TryLock()
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", l.Path(), err)
	}
	if !ok {
		return nil, ErrBusy
	}
	return l, nil
}
