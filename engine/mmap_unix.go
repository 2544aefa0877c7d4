//go:build unix

package engine

import (
	"os"
	"syscall"
)

// readFile maps the manifest into memory, so opening it costs the same
// for 10 lessons as for 10,000 and only the pages a call reads are
// touched. The file is only ever replaced by rename, never rewritten in
// place, so the mapping stays valid.
func readFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if size == 0 || size != int64(int(size)) {
		return readFileBytes(path)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readFileBytes(path)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
