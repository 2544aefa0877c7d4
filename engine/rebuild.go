package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lessons-dev/lessons/scope"
)

// How long a rebuild lock is honoured, how long a hook waits for another
// hook's rebuild before going on with what it has, and how long after a
// failed rebuild hooks answer from what they have instead of trying
// again (unless a source changed since). Hook.Rebuild is expected to give
// up within RebuildDeadline.
const (
	RebuildDeadline = 3 * time.Second
	lockStale       = 2 * RebuildDeadline
	lockWait        = RebuildDeadline + 500*time.Millisecond
	lockPoll        = 10 * time.Millisecond
	rebuildBackoff  = 30 * time.Second
)

// loadManifest opens the manifest at path. When it is missing, corrupt
// or stale (a source changed since it was built) one hook rebuilds it
// under a lock file while parallel hooks wait for that rebuild. When the
// rebuild fails the old manifest is used if there is one, and hooks stop
// trying for rebuildBackoff; a rebuild that reports errors but leaves a
// fresh manifest (lessons it had to drop) counts as done.
func (r *run) loadManifest(path string) (*Manifest, error) {
	m, err := Open(path)
	if err == nil && m.Fresh() {
		return m, nil
	}
	if err != nil && r.builtinDenies() {
		// Waiting on another hook's lock or a rebuild costs seconds a
		// built-in denial does not need; the next call rebuilds.
		if !errors.Is(err, fs.ErrNotExist) {
			r.note("%v (a built-in block denies the call; not rebuilding)", err)
		}
		return nil, errBuiltinDenies
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.note("%v (rebuilding)", err)
	}
	if r.h.Rebuild == nil {
		return m, err
	}
	if failedRecently(path, m) {
		r.note("not rebuilding: the last rebuild failed less than %v ago and no source changed since", rebuildBackoff)
		if m != nil {
			return m, nil
		}
		return nil, fmt.Errorf("no usable manifest at %s: %w", path, err)
	}
	rerr := r.rebuild(path)
	fresh, ferr := Open(path)
	if rerr != nil {
		r.note("rebuild manifest: %v", rerr)
		if ferr != nil || !fresh.Fresh() {
			markFailed(path)
			if m != nil {
				return m, nil
			}
			return nil, fmt.Errorf("no manifest at %s and rebuilding failed: %w", path, rerr)
		}
	}
	if ferr != nil {
		if m != nil {
			return m, nil
		}
		return nil, ferr
	}
	os.Remove(failedMark(path))
	return fresh, nil
}

// errBuiltinDenies stops a call a built-in block denies from waiting for
// a manifest: the built-in blocks answer it.
var errBuiltinDenies = errors.New("a built-in block denies the call")

func failedMark(path string) string { return path + ".failed" }

// markFailed notes when a rebuild of path failed: a new file, so that
// nothing put at its name is written through.
func markFailed(path string) {
	os.Remove(failedMark(path))
	create(failedMark(path))
}

// failedRecently reports whether a rebuild of path failed less than
// rebuildBackoff ago with none of old's sources changed since (old may
// be nil: then time alone decides).
func failedRecently(path string, old *Manifest) bool {
	fi, err := os.Stat(failedMark(path))
	if err != nil || time.Since(fi.ModTime()) >= rebuildBackoff || fi.ModTime().After(time.Now()) {
		return false
	}
	if old == nil {
		return true
	}
	for _, s := range old.Sources {
		now := scope.StampOf(s.Path)
		if now == s {
			continue
		}
		// A variable carries no time: any change counts.
		if strings.HasPrefix(s.Path, "env:") || now.Missing || time.Unix(0, now.ModTime).After(fi.ModTime()) {
			return false
		}
	}
	return true
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
			_, werr := f.WriteString(strconv.Itoa(os.Getpid()))
			f.Close()
			defer os.Remove(lock)
			if werr != nil {
				return werr
			}
			return r.h.Rebuild(r.cwd)
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if fi, err := os.Lstat(lock); err == nil && time.Since(fi.ModTime()) > lockStale || lockHolderGone(lock) {
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

// lockHolderGone reports whether the process that wrote its id into the
// lock has ended: a hook the watchdog ended, or one killed, leaves its
// lock behind, and waiting for it to go stale would cost every call
// until then seconds. A lock whose id is not written yet is held.
func lockHolderGone(lock string) bool {
	data, err := readSmall(lock)
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(string(data))
	return err == nil && pid > 0 && pid != os.Getpid() && !processAlive(pid)
}
