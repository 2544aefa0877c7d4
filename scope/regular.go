package scope

// Files that must be regular files: a named pipe, socket or device where
// a log, lesson, config file or manifest is expected would block a reader
// forever or feed it without end, so it is refused before any read.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the errors of OpenRegular and CheckRegular.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading. It fails, without blocking, with an error
// wrapping ErrNotRegular when path (or what its symlink points to) is not
// a regular file: a named pipe is opened without waiting for a writer,
// and checked on the open descriptor, so a file swapped after a stat is
// caught too.
func OpenRegular(path string) (*os.File, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = CheckRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckRegular returns a *fs.PathError wrapping ErrNotRegular, naming the kind
// of file, when fi is not a regular file.
func CheckRegular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (a %s)", ErrNotRegular, FileKind(fi.Mode()))}
}

// FileKind names a file mode's type for a message.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsRegular():
		return "regular file"
	}
	return "special file"
}
