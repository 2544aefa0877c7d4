//go:build unix

package engine

import "syscall"

// mapManifest maps the manifest at path privately: its pages come from
// the page cache as they are read, with no copy, so opening costs little
// whatever its size. A writer can still shrink the file under the
// mapping; the reads that would fault run with debug.SetPanicOnFault,
// which turns the fault into a panic the hook recovers from (see Open and
// Hook.Run), and the checksum catches a file torn before it was mapped.
func mapManifest(path string, limit int64) ([]byte, func() error, error) {
	f, size, err := openManifest(path, limit)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if size < 4096 {
		return readWhole(path, f, size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return readWhole(path, f, size)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
