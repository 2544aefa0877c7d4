package engine

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lessons-dev/lessons/scope"
)

// readRegular reads the regular file at path, at most limit bytes. It
// refuses a symbolic link (nothing but lessons writes a manifest) and
// anything that is not a regular file (a FIFO would block the open, a
// device would never end), on the open descriptor too.
func readRegular(path string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := scope.CheckRegular(path, fi); err != nil {
		return nil, fmt.Errorf("%w: %w", err, errCorrupt)
	}
	f, err := scope.OpenRegular(path)
	if errors.Is(err, scope.ErrNotRegular) {
		return nil, fmt.Errorf("%w: %w", err, errCorrupt)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, over the %d-byte limit: %w", path, fi.Size(), limit, errCorrupt)
	}
	// One read of the size stat gave; a file that changed size meanwhile
	// shows up as a short read here or as a bad checksum later.
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("%s: %w (%w)", path, err, errCorrupt)
	}
	return data, nil
}
