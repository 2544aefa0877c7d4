//go:build unix

package main

import (
	"os"
	"syscall"
)

// minorFaults is a finished run's minor page faults.
func minorFaults(p *os.ProcessState) int64 {
	if u, ok := p.SysUsage().(*syscall.Rusage); ok {
		return u.Minflt
	}
	return 0
}
