//go:build !unix

package engine

import "io/fs"

// noFollow has no equivalent here: appendRotated's checks before and
// after the open stand alone.
const noFollow = 0

// processAlive cannot tell here: a lock is held until it goes stale.
func processAlive(int) bool { return true }

// soleLink cannot tell a file's links here: capture records are
// replaced, never written in place.
func soleLink(fs.FileInfo) bool { return false }
