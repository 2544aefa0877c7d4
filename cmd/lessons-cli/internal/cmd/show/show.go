// Package show implements `lessons show`.
package show

import (
	"io"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Options are show's flags and dependencies.
type Options struct {
	IO    *iostreams.IOStreams
	Merge func() (scope.Merged, error)

	Key  string
	JSON bool
}

// NewCmdShow returns the show command; runF replaces showRun in tests.
func NewCmdShow(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge}
	cmd := &cobra.Command{
		Use:   "show SLUG",
		Short: "Print a lesson as its YAML file",
		Long: `Print the lesson with this slug (or id) exactly as it is written to a file,
so it can be saved as a new file: a copy in .lessons/ with the same slug
replaces a built-in or global lesson for the project.`,
		Example: `  lessons show git-push-force-without-lease-x7k2
  lessons show git-push-force-without-lease-x7k2 > .lessons/git-push-force-without-lease-x7k2.yaml
  lessons show git-push-force-without-lease-x7k2 --json`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cmdutil.CompleteSlugs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key = args[0]
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON with the lesson's scope, path and what it overrides")
	return cmd
}

// Shown is show's JSON output: the lesson's fields, then where it lives.
type Shown struct {
	lessons.Lesson
	Scope     lessons.Scope `json:"scope"`
	Path      string        `json:"path"`
	Overrides []string      `json:"overrides"`
	// Excluded is why the lesson is not active ("" when it is).
	Excluded string `json:"excluded"`
}

func showRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	r, excluded, err := cmdutil.Find(m, opts.Key)
	if err != nil {
		return err
	}
	if opts.JSON {
		overrides := r.Overrides
		if overrides == nil {
			overrides = []string{}
		}
		return cmdutil.PrintJSON(opts.IO.Out, Shown{Lesson: r.Lesson, Scope: r.Scope, Path: r.Path, Overrides: overrides, Excluded: excluded})
	}
	data, err := repo.MarshalLesson(&r.Lesson)
	if err != nil {
		return err
	}
	_, err = io.WriteString(opts.IO.Out, iostreams.Escape(string(data)))
	return err
}
