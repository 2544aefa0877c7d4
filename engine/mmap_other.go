//go:build !unix

package engine

// readFile reads the whole manifest where mapping it is not available.
func readFile(path string) ([]byte, func() error, error) { return readFileBytes(path) }
