//go:build !unix

package regular

import "os"

func open(path string) (*os.File, error) { return os.Open(path) }
