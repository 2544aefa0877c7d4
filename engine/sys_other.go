//go:build !unix

package engine

// noFollow has no equivalent here: appendRotated's checks before and
// after the open stand alone.
const noFollow = 0

// processAlive cannot tell here: a lock is held until it goes stale.
func processAlive(int) bool { return true }
