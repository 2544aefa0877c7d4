//go:build !unix

package main

import "os"

// minorFaults is 0 where the system does not count them.
func minorFaults(*os.ProcessState) int64 { return 0 }
