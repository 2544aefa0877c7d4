// Package testcmd implements `lessons test`.
package testcmd

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Options are test's flags and dependencies.
type Options struct {
	IO     *iostreams.IOStreams
	Merge  func() (scope.Merged, error)
	Loader scope.Loader

	Slugs []string
	Dir   string
	JSON  bool
}

// NewCmdTest returns the test command; runF replaces testRun in tests.
func NewCmdTest(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge, Loader: f.Loader}
	cmd := &cobra.Command{
		Use:   "test [SLUG...]",
		Short: "Check that every lesson's examples behave as declared",
		Long: `Run each lesson's match and noMatch examples through the hook's own
matcher, print every failure with its file, and exit 1 if there is one.
Without SLUG, test every lesson of every scope that applies here; with
--dir, test the lesson files of a directory instead (a pack's CI runs
lessons test --dir lessons).

A lesson on an error (triggers.errors) comes only after a failed call, so
it matches only an example that gives what the call printed (error:); its
other triggers must match the example's command, path or content too.`,
		Example: `  lessons test
  lessons test git-push-force-without-lease-x7k2
  lessons test --dir lessons`,
		ValidArgsFunction: cmdutil.CompleteSlugs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Slugs = args
			if runF != nil {
				return runF(opts)
			}
			return testRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "test the lesson files in `dir` instead of the scopes that apply here")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// Failure is one problem in test's JSON output.
type Failure struct {
	Slug    string `json:"slug"`
	Path    string `json:"path"`
	Example string `json:"example"` // "examples.match[0]", "" for a file that does not load
	Message string `json:"message"`
}

// Report is test's JSON output.
type Report struct {
	Lessons  int       `json:"lessons"`
	Examples int       `json:"examples"`
	Failures []Failure `json:"failures"`
}

func testRun(opts *Options) error {
	rs, loadErrs, err := opts.lessons()
	if err != nil {
		return err
	}
	rep := Report{Failures: []Failure{}}
	for _, e := range loadErrs {
		rep.Failures = append(rep.Failures, Failure{Message: e.Error()})
	}
	for _, r := range rs {
		rep.Lessons++
		n, fails := cmdutil.CheckExamples(&r.Lesson)
		rep.Examples += n
		for _, f := range fails {
			rep.Failures = append(rep.Failures, Failure{Slug: r.Slug, Path: r.Path, Example: f.Field, Message: f.String()})
		}
	}
	if opts.JSON {
		if err := cmdutil.PrintJSON(opts.IO.Out, rep); err != nil {
			return err
		}
	} else {
		for _, f := range rep.Failures {
			if f.Path == "" {
				fmt.Fprintf(opts.IO.Out, "FAIL %s\n", iostreams.Escape(f.Message))
				continue
			}
			fmt.Fprintf(opts.IO.Out, "FAIL %s: %s: %s\n", f.Path, f.Slug, iostreams.Escape(f.Message))
		}
	}
	if len(rep.Failures) > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "%d failures in %d lessons (%d examples)\n", len(rep.Failures), rep.Lessons, rep.Examples)
		return cmdutil.ErrSilent
	}
	if !opts.JSON {
		fmt.Fprintf(opts.IO.Out, "ok: %d lessons, %d examples\n", rep.Lessons, rep.Examples)
	}
	return nil
}

// lessons are the lessons to test, with the files that did not load (and
// lessons that are invalid): those of Dir, or every lesson of the scopes
// that apply here, overridden and disabled ones too; or only Slugs.
func (opts *Options) lessons() ([]scope.Resolved, []error, error) {
	var rs []scope.Resolved
	var errs []error
	if opts.Dir != "" {
		dir, err := filepath.Abs(opts.Dir)
		if err != nil {
			return nil, nil, err
		}
		rs, errs = opts.Loader.Lessons(scope.Store{Scope: lessons.ScopeProject, Dir: dir})
	} else {
		m, err := opts.Merge()
		if err != nil {
			return nil, nil, err
		}
		rs, errs = m.Active, m.Warnings
		for _, e := range m.Excluded {
			rs = append(rs, e.Resolved)
		}
	}
	if len(opts.Slugs) == 0 {
		return rs, errs, nil
	}
	// Files that do not load are not the named lessons' failures.
	var picked []scope.Resolved
	for _, slug := range opts.Slugs {
		i := slices.IndexFunc(rs, func(r scope.Resolved) bool { return r.Slug == slug || r.ID == slug })
		if i < 0 {
			return nil, nil, cmdutil.NotFound(errs, slug)
		}
		picked = append(picked, rs[i])
	}
	return picked, nil, nil
}
