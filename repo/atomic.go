package repo

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// WriteFileAtomic writes data to path through a temporary file renamed
// over it, creating the parent directories: a reader (the hook, a
// concurrent command, git) sees the old file or the new one, never half.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return renameio.WriteFile(path, data, perm)
}
