package scope

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced and then renamed over path, creating the parent
// directories: a reader (the hook, a concurrent command, git) sees the old
// file or the new one, never half, and a crash leaves one of the two.
// Every file lessons writes whole goes through it: manifests, lesson and
// config files, lock files, agents' settings and the scanner's state.
// renameio does the same but not on Windows, where a rename over a file
// that another process has open fails for a moment; it is retried there.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	for try := 0; ; try++ {
		err = os.Rename(f.Name(), path)
		if err == nil || runtime.GOOS != "windows" || try == 20 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable where the platform allows it.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
