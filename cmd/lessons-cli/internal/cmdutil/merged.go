package cmdutil

import (
	"fmt"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Merge merges the stores that apply to the working directory.
func (f *Factory) Merge() (scope.Merged, error) {
	cwd, err := f.WorkingDir()
	if err != nil {
		return scope.Merged{}, err
	}
	return scope.Merge(f.Dirs(), cwd, f.Loader), nil
}

// Config is the configuration that applies to the working directory,
// without loading the lessons; warnings name files that did not load.
func (f *Factory) Config() (lessons.Config, []error, error) {
	cwd, err := f.WorkingDir()
	if err != nil {
		return lessons.Config{}, nil, err
	}
	cfg, warnings := scope.Config(f.Dirs(), cwd, f.Loader)
	return cfg, warnings, nil
}

// PrintWarnings reports on the error output what did not load.
func PrintWarnings(ios *iostreams.IOStreams, warnings []error) {
	for _, w := range warnings {
		fmt.Fprintf(ios.ErrOut, "warning: %s\n", iostreams.EscapeLine(w.Error())) // names a pack's file
	}
}
