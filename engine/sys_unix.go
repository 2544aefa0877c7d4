//go:build unix

package engine

import "syscall"

// noFollow makes an open fail on a symbolic link and return at once on
// a named pipe, where the hook writes files the agent could have
// replaced.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// processAlive reports whether process pid exists; one of another user
// does.
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) != syscall.ESRCH
}
