//go:build !unix

package engine

// mapManifest reads the manifest at path into memory.
func mapManifest(path string, limit int64) ([]byte, func() error, error) {
	f, size, err := openManifest(path, limit)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readWhole(path, f, size)
}
