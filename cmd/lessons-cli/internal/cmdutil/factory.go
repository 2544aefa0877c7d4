// Package cmdutil holds what every command shares: the Factory of its
// dependencies, the errors that decide how the CLI exits, and JSON output.
package cmdutil

import (
	"time"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Factory gives commands their dependencies, so tests can swap each one.
type Factory struct {
	IOStreams *iostreams.IOStreams
	// Getenv reads the environment (LESSONS_*, XDG_*, EDITOR).
	Getenv func(string) string
	// WorkingDir is the directory the command acts for.
	WorkingDir func() (string, error)
	// Loader reads lesson and config files.
	Loader scope.Loader
	// Now is the clock for ids and timestamps.
	Now func() time.Time
}

// Dirs are the directories lessons keeps its files in.
func (f *Factory) Dirs() scope.Dirs { return scope.DefaultDirs(f.Getenv) }
