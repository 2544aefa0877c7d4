//go:build !unix

package engine

import "os"

// openNoBlock opens path for reading; only Unix has FIFOs that block an
// open.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
