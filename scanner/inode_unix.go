//go:build unix

package scanner

import (
	"io/fs"
	"syscall"
)

// inode returns a file's inode number, so a replaced file is told from
// one that grew.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
