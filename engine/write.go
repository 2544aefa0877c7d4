package engine

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteManifest writes the manifest to path atomically: a temporary file
// in the same directory, synced, then renamed over path, so a hook never
// reads half a manifest and an open one stays valid. It creates the
// directory when needed.
func (m *Manifest) WriteManifest(path string) error {
	return writeAtomic(path, m.data)
}

func writeAtomic(path string, data []byte) (err error) {
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
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}
