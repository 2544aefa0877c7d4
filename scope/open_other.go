//go:build !unix

package scope

import "os"

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
