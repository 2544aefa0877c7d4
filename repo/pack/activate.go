package pack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"

	"github.com/lessons-dev/lessons/scope"
)

// Active describes the version of a pack the hook reads: version.json in
// the version directory that the pack's "active" link points to.
type Active struct {
	Name        string    `json:"name"`
	URL         string    `json:"url"` // without credentials
	Ref         string    `json:"ref,omitempty"`
	Commit      string    `json:"commit"`
	Hash        string    `json:"hash"`
	Lessons     int       `json:"lessons"`
	ActivatedAt time.Time `json:"activatedAt"`
}

const (
	activeInfo  = "version.json"
	versionsDir = "versions"
	syncedFile  = "synced"
)

// ReadActive reads what is active in packDir (scope.Dirs.PackDir); nil,
// nil when nothing is.
func ReadActive(packDir string) (*Active, error) {
	data, err := os.ReadFile(filepath.Join(packDir, activeInfo))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var a Active
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(packDir, activeInfo), err)
	}
	return &a, nil
}

// LastSync is when packDir's pack last synced with its remote; zero when
// it never did.
func LastSync(packDir string) time.Time {
	fi, err := os.Stat(filepath.Join(filepath.Dir(packDir), syncedFile))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

func markSynced(packDir string, now time.Time) error {
	p := filepath.Join(filepath.Dir(packDir), syncedFile)
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		return err
	}
	return os.Chtimes(p, now, now)
}

// activate writes v to a new directory under versions/ beside packDir and
// then points packDir, a symbolic link, at it in one atomic rename: the
// hook sees the old version or the new one, and a failure at any step
// leaves the old one active. Versions older than the previous one are
// removed.
func activate(packDir string, v *Version, info Active) error {
	versions := filepath.Join(filepath.Dir(packDir), versionsDir)
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(versions, ".new-")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Mkdir(filepath.Join(tmp, LessonsDir), 0o755); err != nil {
		return err
	}
	for name, data := range v.Files {
		if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(name)), data, 0o644); err != nil {
			return err
		}
	}
	info.Commit, info.Hash, info.Lessons = v.Commit, v.Hash, len(v.Files)
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, activeInfo), append(data, '\n'), 0o644); err != nil {
		return err
	}
	final := filepath.Join(versions, short(v.Commit)+"-"+filepath.Base(tmp)[len(".new-"):])
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	done = true
	previous, _ := os.Readlink(packDir)
	if fi, err := os.Lstat(packDir); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
		// Not ours (an older layout or a hand-made directory): set it aside.
		if err := os.Rename(packDir, filepath.Join(versions, ".old-"+filepath.Base(final))); err != nil {
			return err
		}
	}
	if err := renameio.Symlink(filepath.Join(versionsDir, filepath.Base(final)), packDir); err != nil {
		os.RemoveAll(final)
		return fmt.Errorf("activating %s: %w", packDir, err)
	}
	prune(versions, filepath.Base(final), previous)
	return nil
}

// prune removes every version directory but current, previous (the hook
// may still be reading it) and those that another store's active link
// points to; a failure only leaves disk space used.
func prune(versions, current, previous string) {
	keep := map[string]bool{current: true, filepath.Base(previous): true}
	links, _ := filepath.Glob(filepath.Join(filepath.Dir(versions), "active-*"))
	for _, l := range links {
		if target, err := os.Readlink(l); err == nil {
			keep[filepath.Base(target)] = true
		}
	}
	entries, _ := os.ReadDir(versions)
	for _, e := range entries {
		if !keep[e.Name()] {
			os.RemoveAll(filepath.Join(versions, e.Name()))
		}
	}
}

// verifyActive reports whether the lesson files in packDir still hash to
// hash: nobody edited or removed a file of the cache by hand.
func verifyActive(packDir, hash string) bool {
	dir := filepath.Join(packDir, LessonsDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	files := make(map[string][]byte, len(entries))
	for _, e := range entries {
		if !e.Type().IsRegular() {
			return false
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return false
		}
		files[LessonsDir+"/"+e.Name()] = data
	}
	got, err := HashFiles(files)
	return err == nil && got == hash
}

// Forget removes everything the cache holds for the pack name: its clone
// and its versions, under the pack's file lock. The manifest must be
// rebuilt afterwards.
func Forget(d scope.Dirs, name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	root := d.PackRoot(name)
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := lockDir(context.Background(), root)
	if err != nil {
		return err
	}
	defer unlock()
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, en := range entries {
		if en.Name() != "lock" {
			if err := os.RemoveAll(filepath.Join(root, en.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
