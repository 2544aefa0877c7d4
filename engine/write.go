package engine

import "github.com/lessons-dev/lessons/scope"

// WriteManifest writes the manifest to path atomically: a temporary file
// in the same directory, synced, then renamed over path, so a hook never
// reads half a manifest and an open one stays valid. It creates the
// directory when needed.
func (m *Manifest) WriteManifest(path string) error {
	return scope.WriteFileAtomic(path, m.data, 0o644)
}
