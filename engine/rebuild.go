package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// How long a rebuild lock is honoured, and how long a hook waits for
// another hook's rebuild before going on with what it has.
const (
	lockStale = 10 * time.Second
	lockWait  = 5 * time.Second
	lockPoll  = 10 * time.Millisecond
)

// loadManifest opens the manifest at path. When it is missing or stale
// (a source changed since it was built) one hook rebuilds it under a
// lock file while parallel hooks wait for that rebuild. When the rebuild
// fails the old manifest is used if there is one.
func (r *run) loadManifest(path string) (*Manifest, error) {
	m, err := Open(path)
	if err == nil && m.Fresh() {
		return m, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.note("%v (rebuilding)", err)
	}
	if r.h.Rebuild == nil {
		return m, err
	}
	if rerr := r.rebuild(path); rerr != nil {
		r.note("rebuild manifest: %v", rerr)
		if m != nil {
			return m, nil
		}
		return nil, fmt.Errorf("no manifest at %s and rebuilding failed: %w", path, rerr)
	}
	fresh, ferr := Open(path)
	if ferr != nil {
		if m != nil {
			return m, nil
		}
		return nil, ferr
	}
	if m != nil {
		m.Close()
	}
	return fresh, nil
}

// rebuild runs Rebuild under path's lock, or waits for the hook that
// holds it.
func (r *run) rebuild(path string) error {
	lock := path + ".lock"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			defer os.Remove(lock)
			return r.h.Rebuild(r.cwd)
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if fi, err := os.Stat(lock); err == nil && time.Since(fi.ModTime()) > lockStale {
			os.Remove(lock) // its holder died
			continue
		}
		if time.Now().After(deadline) {
			return errors.New("another hook is still rebuilding the manifest")
		}
		time.Sleep(lockPoll)
		if _, err := os.Stat(lock); errors.Is(err, fs.ErrNotExist) {
			return nil // the other hook finished
		}
	}
}
