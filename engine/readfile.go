package engine

import (
	"fmt"
	"io"
	"os"
)

// readRegular reads the regular file at path, at most limit bytes. It
// refuses anything else before opening it (a FIFO would block the open,
// a device would never end), and checks again on the open file, which
// openNoBlock opened without waiting for a writer, in case the path was
// swapped in between.
func readRegular(path string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v): %w", path, fi.Mode().Type(), errCorrupt)
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v): %w", path, fi.Mode().Type(), errCorrupt)
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
