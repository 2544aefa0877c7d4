//go:build unix

package engine

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without waiting: on a FIFO swapped
// in for a file, a plain open would wait for a writer forever.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
