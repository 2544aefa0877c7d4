//go:build unix

package scope

import (
	"os"
	"syscall"
)

// openNoBlock opens path without blocking on a named pipe that has no writer.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
