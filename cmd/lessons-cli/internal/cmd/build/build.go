// Package build implements `lessons build`.
package build

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Options are build's flags and dependencies.
type Options struct {
	IO         *iostreams.IOStreams
	Dirs       scope.Dirs
	WorkingDir func() (string, error)
	Loader     scope.Loader

	Quiet bool
	JSON  bool
}

// NewCmdBuild returns the build command; runF replaces buildRun in tests.
func NewCmdBuild(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, WorkingDir: f.WorkingDir, Loader: f.Loader}
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Compile the lessons that apply here into the hook's manifest",
		Long: `Merge the scopes that apply to the current directory (built-in < global <
packs < project) and write the manifest the hook reads. Print how many
lessons are active and each excluded one with why.

You rarely need this: the hook notices a changed lesson file with a few
stat calls and runs build itself.

A lesson file that does not load (broken YAML, an invalid field, a
named pipe) or a lesson that does not compile is left out, named with
its file and line; the manifest of the others is still written.

Exit status: 0 built; 1 built, but lessons were left out (each named
on stderr); 2 nothing was built. The hook, which runs build --quiet,
uses the manifest of a build that exited 1: it was written, and fresh.`,
		Example: `  lessons build
  lessons build --quiet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dirs = f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return buildRun(opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print only errors")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// Excluded is one excluded lesson in build's JSON output.
type Excluded struct {
	Slug   string `json:"slug"`
	Scope  string `json:"scope"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Report is build's JSON output.
type Report struct {
	Manifest string     `json:"manifest"`
	Project  string     `json:"project"`
	Active   int        `json:"active"`
	Excluded []Excluded `json:"excluded"`
	Warnings []string   `json:"warnings"`
}

// Exit statuses of build; see its help.
const (
	exitLeftOut = 1
	exitFailed  = 2
)

func buildRun(opts *Options) error {
	cwd, err := opts.WorkingDir()
	if err != nil {
		return &cmdutil.ExitError{Code: exitFailed, Err: err}
	}
	b, err := cmdutil.Build(opts.Dirs, cwd, opts.Loader)
	if err != nil {
		return &cmdutil.ExitError{Code: exitFailed, Err: err}
	}
	m := b.Merged
	warnings := append(m.Warnings, b.Manifest.Warnings()...)
	// Files that did not load, and lessons the manifest could not hold.
	problems := len(m.Warnings) + len(m.Active) - b.Manifest.Len()
	if opts.JSON {
		rep := Report{Manifest: b.Path, Project: m.Project, Active: b.Manifest.Len(), Excluded: []Excluded{}, Warnings: []string{}}
		for _, e := range m.Excluded {
			rep.Excluded = append(rep.Excluded, Excluded{Slug: e.Slug, Scope: string(e.Scope), Path: e.Path, Reason: e.Reason})
		}
		for _, w := range warnings {
			rep.Warnings = append(rep.Warnings, w.Error())
		}
		if err := cmdutil.PrintJSON(opts.IO.Out, rep); err != nil {
			return err
		}
		if problems > 0 {
			return &cmdutil.ExitError{Code: exitLeftOut}
		}
		return nil
	}
	if opts.Quiet {
		if problems > 0 {
			cmdutil.PrintWarnings(opts.IO, warnings)
			return &cmdutil.ExitError{Code: exitLeftOut}
		}
		return nil
	}
	cmdutil.PrintWarnings(opts.IO, warnings)
	fmt.Fprintf(opts.IO.Out, "built %s: %d active, %d excluded\n", b.Path, b.Manifest.Len(), len(m.Excluded))
	for _, e := range m.Excluded {
		fmt.Fprintf(opts.IO.Out, "  excluded %s (%s): %s\n", e.Slug, e.Scope, e.Reason)
	}
	if problems > 0 {
		return &cmdutil.ExitError{Code: exitLeftOut, Err: cmdutil.Hintf("lessons doctor, then fix the files named above",
			"%d files or lessons did not load or compile (named above) and were left out; the manifest holds the rest", problems)}
	}
	return nil
}
