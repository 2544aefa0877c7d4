package cmdutil

import (
	"os"

	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scope"
)

// Built is the outcome of building a manifest.
type Built struct {
	Merged   scope.Merged
	Path     string // where the manifest was written
	Manifest *engine.Manifest
}

// Build merges the stores that apply to cwd and the candidate store's
// reminders (Reminders), compiles the manifest and writes it atomically
// to its place under d.Cache. The running binary is a source of the
// manifest, since its built-in lessons are.
func Build(d scope.Dirs, cwd string, l scope.Loader) (Built, error) {
	m := scope.MergeWith(d, cwd, l, Reminders(d))
	var self scope.Stamp
	if exe, err := os.Executable(); err == nil {
		self = scope.StampOf(exe)
	}
	man, err := engine.Compile(m, self)
	if err != nil {
		return Built{}, err
	}
	path := d.ManifestPath(m.Project)
	if err := man.WriteManifest(path); err != nil {
		return Built{}, err
	}
	return Built{Merged: m, Path: path, Manifest: man}, nil
}
