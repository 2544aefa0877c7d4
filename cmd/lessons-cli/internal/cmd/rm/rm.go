// Package rm implements `lessons rm`.
package rm

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Options are rm's flags and dependencies.
type Options struct {
	IO    *iostreams.IOStreams
	Dirs  scope.Dirs
	Merge func() (scope.Merged, error)

	Key string
}

// NewCmdRm returns the rm command; runF replaces rmRun in tests.
func NewCmdRm(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge}
	return &cobra.Command{
		Use:   "rm SLUG",
		Short: "Remove a global or project lesson",
		Long: `Delete the file of the lesson with this slug (or id) that applies here: in
the global store that is one git commit; in a project, commit the removal
yourself. Built-in and pack lessons cannot be removed: disable them.`,
		Example:           `  lessons rm pytest-hangs-waiting-on-a-tty-k3x9`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cmdutil.CompleteSlugs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key, opts.Dirs = args[0], f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return rmRun(opts)
		},
	}
}

func rmRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	r, t, err := cmdutil.FindOwned(opts.Dirs, m, opts.Key)
	if err != nil {
		return err
	}
	path, err := t.Remove(r.Slug, "rm "+r.Slug+": "+r.Summary)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "removed %s from %s\n", path, t.Where())
	if len(r.Overrides) > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "note: %s applies again\n", r.Overrides[0])
	}
	return nil
}
