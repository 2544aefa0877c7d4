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

	"github.com/lessons-dev/lessons/scope"
)

// Active describes the version of a pack the hook reads: version.json in
// the version directory that the pack's link names.
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
	activeInfo = "version.json"
	syncedFile = "synced"
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

// LastSync is when the pack whose cache is root (scope.Dirs.PackRoot)
// last synced with its remote; zero when it never did.
func LastSync(root string) time.Time {
	fi, err := os.Stat(filepath.Join(root, syncedFile))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

func markSynced(root string, now time.Time) error {
	p := filepath.Join(root, syncedFile)
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		return err
	}
	return os.Chtimes(p, now, now)
}

// activate writes v to a new directory under versions/ beside link and
// then replaces link, a one-line file naming the version directory
// (scope.Dirs.PackLink), in one atomic rename: the hook sees the old
// version or the new one, and a failure at any step leaves the old one
// active. Versions older than the previous one are removed.
func activate(link string, v *Version, info Active) error {
	versions := filepath.Join(filepath.Dir(link), scope.PackVersionsDir)
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
	final := short(v.Commit) + "-" + filepath.Base(tmp)[len(".new-"):]
	if err := os.Rename(tmp, filepath.Join(versions, final)); err != nil {
		return err
	}
	done = true
	previous := linkTarget(link)
	if fi, err := os.Lstat(link); err == nil && fi.IsDir() {
		// Not ours (a hand-made directory): set it aside.
		if err := os.Rename(link, filepath.Join(versions, ".old-"+final)); err != nil {
			return err
		}
	}
	if err := writeLink(link, final); err != nil {
		os.RemoveAll(filepath.Join(versions, final))
		return fmt.Errorf("activating %s: %w", link, err)
	}
	prune(versions, final, previous)
	return nil
}

// writeLink points link at the version directory named version: written
// beside it, synced, then renamed over it. Windows refuses the rename
// while another process reads the old link, so it is tried a few times.
func writeLink(link, version string) error {
	f, err := os.CreateTemp(filepath.Dir(link), ".link-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(version + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	for try := 0; ; try++ {
		err = os.Rename(f.Name(), link)
		if err == nil || try == 20 {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// linkTarget is the version directory's name that link points to: a
// pack link, or the symbolic link of caches written by lessons 0.1.
func linkTarget(link string) string {
	if v, ok := scope.ReadPackLink(link); ok {
		return v
	}
	if target, err := os.Readlink(link); err == nil {
		return filepath.Base(target)
	}
	return ""
}

// prune removes every version directory but current, previous (the hook
// may still be reading it) and those that another store's link points
// to; a failure only leaves disk space used.
func prune(versions, current, previous string) {
	keep := map[string]bool{current: true, previous: true}
	links, _ := filepath.Glob(filepath.Join(filepath.Dir(versions), "active-*"))
	for _, l := range links {
		keep[linkTarget(l)] = true
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
