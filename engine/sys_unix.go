//go:build unix

package engine

import (
	"io/fs"
	"syscall"
)

// noFollow makes an open fail on a symbolic link and return at once on
// a named pipe, where the hook writes files the agent could have
// replaced.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// processAlive reports whether process pid exists; one of another user
// does.
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) != syscall.ESRCH
}

// soleLink reports whether fi is a regular file with no other name: one
// the hook may write in place without writing through a hard link the
// agent made to a file of its own.
func soleLink(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode().IsRegular() && st.Nlink == 1
}
