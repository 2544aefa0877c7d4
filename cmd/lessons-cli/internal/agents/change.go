package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lessons-dev/lessons/scope"
)

// BackupSuffix names the copy of a settings file lessons makes before
// changing it the first time.
const BackupSuffix = ".lessons-backup"

// Change is what installing or uninstalling does to one file.
type Change struct {
	Path     string
	Old, New []byte
	Existed  bool // the file was there before
	Remove   bool // the change deletes the file
	// NoBackup is for lessons' own files (plugins, exports), which get
	// no backup.
	NoBackup bool
}

// Changed reports whether applying the change would alter anything.
func (c Change) Changed() bool {
	if c.Remove {
		return c.Existed
	}
	return !c.Existed || !bytes.Equal(c.Old, c.New)
}

// Diff is the change as a unified diff.
func (c Change) Diff() string {
	from, to := c.Path, c.Path
	if !c.Existed {
		from = "/dev/null"
	}
	newText := c.New
	if c.Remove {
		to, newText = "/dev/null", nil
	}
	return unifiedDiff(from, to, string(c.Old), string(newText))
}

// Apply makes the change. Before the first change to a file that
// existed, it copies the file to its backup, once: a later install keeps
// the first backup. It returns the backup's path, or "".
func (c Change) Apply() (backup string, err error) {
	if !c.Changed() {
		return "", nil
	}
	if c.Remove {
		if err := os.Remove(c.Path); err != nil {
			return "", err
		}
		// A directory the install created (a project's .codex/) goes
		// with its last file; one holding anything else stays.
		_ = os.Remove(filepath.Dir(c.Path))
		return "", nil
	}
	path := c.Path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // write through a dotfile manager's symlink
	}
	mode := fs.FileMode(0o644)
	if c.Existed && !c.NoBackup {
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		backup = c.Path + BackupSuffix
		if _, err := os.Stat(backup); errors.Is(err, fs.ErrNotExist) {
			if err := os.WriteFile(backup, c.Old, mode); err != nil {
				return "", fmt.Errorf("back up %s: %w", c.Path, err)
			}
		} else {
			backup = ""
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := scope.WriteFileAtomic(path, c.New, mode); err != nil {
		return "", fmt.Errorf("write %s: %w", c.Path, err)
	}
	return backup, nil
}

// readFile reads path; a missing file is no data and not an error.
func readFile(path string) (data []byte, existed bool, err error) {
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// PlanInstall computes the change that installs lessons for a into the
// file at path, running the lessons binary at bin.
func (a *Agent) PlanInstall(path, bin string) (Change, error) {
	old, existed, err := readFile(path)
	if err != nil {
		return Change{}, err
	}
	c := Change{Path: path, Old: old, Existed: existed}
	if a.Plugin {
		if existed && !IsOurPlugin(old) {
			return Change{}, fmt.Errorf("%s exists and is not the lessons plugin; move it away first", path)
		}
		c.New, c.NoBackup = PluginSource(bin), true
		return c, nil
	}
	c.New, err = a.AddHooks(old, bin)
	if err != nil {
		return Change{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// PlanUninstall computes the changes that remove what installing lessons
// for a added at path: the file's, where a settings file left empty that
// had no backup (lessons created it) is deleted, then the deletion of
// the backup install kept beside it, which uninstalling leaves no use for.
func (a *Agent) PlanUninstall(path string) ([]Change, error) {
	c, backup, err := a.planUninstall(path)
	if err != nil {
		return nil, err
	}
	out := []Change{c}
	if backup != nil {
		out = append(out, Change{Path: path + BackupSuffix, Old: backup, Existed: true, Remove: true, NoBackup: true})
	}
	return out, nil
}

// planUninstall is PlanUninstall's change to the file itself, and the
// backup beside it (nil: none).
func (a *Agent) planUninstall(path string) (Change, []byte, error) {
	old, existed, err := readFile(path)
	if err != nil {
		return Change{}, nil, err
	}
	c := Change{Path: path, Old: old, New: old, Existed: existed}
	var backup []byte
	hasBackup := false
	if !a.Plugin {
		if backup, hasBackup, err = readFile(path + BackupSuffix); err != nil {
			return Change{}, nil, err
		}
		if hasBackup && backup == nil {
			backup = []byte{} // an empty file's backup
		}
	}
	if !existed {
		c.Remove = true // nothing installed: nothing to write, nothing to remove
		return c, backup, nil
	}
	if a.Plugin {
		c.Remove, c.NoBackup = IsOurPlugin(old), true
		return c, nil, nil
	}
	newData, removed, err := a.RemoveHooks(old, backup)
	if err != nil {
		return Change{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	if !removed {
		return c, backup, nil
	}
	c.New = newData
	if d, err := load(newData); err == nil && len(d.root.members) == 0 && !hasBackup {
		c.Remove = true // lessons created the file
	}
	return c, backup, nil
}
