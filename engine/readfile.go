package engine

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lessons-dev/lessons/scope"
)

// openManifest opens the regular file at path and returns its size, at
// most limit. It refuses a symbolic link (nothing but lessons writes a
// manifest) and anything that is not a regular file (a FIFO would block
// the open, a device would never end), on the open descriptor too.
func openManifest(path string, limit int64) (*os.File, int64, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, 0, err
	}
	if err := scope.CheckRegular(path, fi); err != nil {
		return nil, 0, fmt.Errorf("%w: %w", err, errCorrupt)
	}
	f, err := scope.OpenRegular(path)
	if errors.Is(err, scope.ErrNotRegular) {
		return nil, 0, fmt.Errorf("%w: %w", err, errCorrupt)
	}
	if err != nil {
		return nil, 0, err
	}
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, 0, err
	}
	if fi.Size() > limit {
		f.Close()
		return nil, 0, fmt.Errorf("%s is %d bytes, over the %d-byte limit: %w", path, fi.Size(), limit, errCorrupt)
	}
	return f, fi.Size(), nil
}

// readWhole reads size bytes of f: where mapping is not available, or for a
// file too small to be worth it.
func readWhole(path string, f *os.File, size int64) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, fmt.Errorf("%s: %w (%w)", path, err, errCorrupt)
	}
	return data, func() error { return nil }, nil
}
