package scanner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/lessons-dev/lessons/scope"
)

// Layout of the scanner's part of the state directory.
const (
	stateSubdir      = "scanner"
	stateFile        = "state.tsv"
	lockFile         = "scan.lock"
	candidatesSubdir = "candidates"
)

// ErrBusy is returned when another scan (or a review command) holds the
// state lock and the caller did not ask to wait.
var ErrBusy = errors.New("another lessons scan is running")

// fileState is what a scan remembers of one file.
type fileState struct {
	Format  Format
	Size    int64
	MtimeNs int64
	Inode   uint64
	// StartNs is when the session started, the log's first timestamp (0
	// when it has none): scans merge files in that order.
	StartNs int64
	Offset  int64 // where the next read starts
	Line    int   // lines before Offset
	Session Session
	// Pending is set when the session was still being written: some
	// failures wait for a retry or a correction, so the file is read
	// again (from Offset) once it has been idle.
	Pending bool
}

// scanState is every file's state.
type scanState struct {
	Files map[string]*fileState
}

// The state file is tab-separated text, one file per line: decoding a
// large JSON document would cost an incremental scan more than all its
// stats. Fields that hold a tab, a newline or a leading quote are quoted.
const stateHeader = "lessons-scan-state\t2"

func loadState(dir string) (*scanState, error) {
	st := &scanState{Files: map[string]*fileState{}}
	b, err := os.ReadFile(filepath.Join(dir, stateSubdir, stateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read scan state: %w", err)
	}
	lines := strings.Split(string(b), "\n")
	if lines[0] != stateHeader {
		return st, nil // an older or damaged state costs a full scan, no more
	}
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		if len(f) != 11 {
			continue
		}
		fs := &fileState{Format: Format(f[1]), Pending: f[7] == "1",
			Session: Session{ID: tsvUnfield(f[8]), Project: tsvUnfield(f[9])}}
		fs.Size, _ = strconv.ParseInt(f[2], 10, 64)
		fs.MtimeNs, _ = strconv.ParseInt(f[3], 10, 64)
		fs.Inode, _ = strconv.ParseUint(f[4], 10, 64)
		fs.Offset, _ = strconv.ParseInt(f[5], 10, 64)
		fs.Line, _ = strconv.Atoi(f[6])
		fs.StartNs, _ = strconv.ParseInt(f[10], 10, 64)
		st.Files[tsvUnfield(f[0])] = fs
	}
	return st, nil
}

func saveState(dir string, st *scanState) error {
	var b strings.Builder
	b.WriteString(stateHeader)
	for p, f := range st.Files {
		pending := "0"
		if f.Pending {
			pending = "1"
		}
		fmt.Fprintf(&b, "\n%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%d", tsvField(p), f.Format, f.Size, f.MtimeNs,
			f.Inode, f.Offset, f.Line, pending, tsvField(f.Session.ID), tsvField(f.Session.Project), f.StartNs)
	}
	if err := os.MkdirAll(filepath.Join(dir, stateSubdir), 0o700); err != nil {
		return fmt.Errorf("write scan state: %w", err)
	}
	if err := scope.WriteFileAtomic(filepath.Join(dir, stateSubdir, stateFile), []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("write scan state: %w", err)
	}
	return nil
}

func tsvField(s string) string {
	if strings.ContainsAny(s, "\t\n\r") || strings.HasPrefix(s, `"`) {
		return strconv.Quote(s)
	}
	return s
}

func tsvUnfield(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
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
