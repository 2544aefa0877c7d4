// Package doctor implements `lessons doctor`.
package doctor

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/agents"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Options are doctor's flags and dependencies.
type Options struct {
	IO         *iostreams.IOStreams
	Dirs       scope.Dirs
	WorkingDir func() (string, error)
	Loader     scope.Loader
	Getenv     func(string) string

	JSON bool
	Fix  bool
}

// NewCmdDoctor returns the doctor command; runF replaces doctorRun in
// tests.
func NewCmdDoctor(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, WorkingDir: f.WorkingDir, Loader: f.Loader, Getenv: f.Getenv}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check every lesson and config that applies here",
		Long: `Check every scope that applies to the current directory: each file against
its schema, regexes that do not compile or backtrack catastrophically (a
timed probe on hostile input), tool names no agent uses, lessons without
examples or whose examples misbehave, duplicate and near-duplicate lessons,
config files, whether the manifest is stale, and the global store's git
repository: a branch or index a killed command damaged, and changes an
interrupted command left uncommitted. A lesson of a subscribed pack that
would fail the built-ins' gate on your own sessions of the last 14 days
(replayed for at most 5 seconds) is a warning. Each finding names the file (and
line) and the fix; --fix repairs the store. Exit 1 when there is an
error, 0 when there are only warnings.`,
		Example: `  lessons doctor
  lessons doctor --json
  lessons doctor --fix`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dirs = f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the findings as JSON")
	cmd.Flags().BoolVar(&opts.Fix, "fix", false, "repair the global store's repository first")
	return cmd
}

// Finding is one problem doctor found, in its JSON output.
type Finding struct {
	Severity string `json:"severity"` // "error" or "warning"
	File     string `json:"file"`
	Line     int    `json:"line"` // 0 when the finding is about the whole file
	Column   int    `json:"column"`
	Field    string `json:"field"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// Severities of findings.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

func doctorRun(opts *Options) error {
	cwd, err := opts.WorkingDir()
	if err != nil {
		return err
	}
	store := repo.Store{Dir: opts.Dirs.Home}
	if opts.Fix {
		did, err := store.Repair()
		for _, d := range did {
			fmt.Fprintf(opts.IO.ErrOut, "fixed: %s\n", d)
		}
		if err != nil {
			return fmt.Errorf("repairing the store: %w", err)
		}
	}
	c := &checkup{dirs: opts.Dirs, loader: opts.Loader}
	for _, p := range store.Check() {
		c.add(SeverityError, store.Dir, 0, 0, "", p.Problem, p.Fix)
	}
	n := c.run(cwd)
	c.packGate(cwd, opts.Getenv)
	problems, statuses := agents.Report(opts.Getenv, cwd)
	for _, p := range problems {
		c.add(p.Severity, p.File, 0, 0, "", p.Message, p.Fix)
	}
	fs := c.findings
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	errors := 0
	for _, f := range fs {
		if f.Severity == SeverityError {
			errors++
		}
	}
	if opts.JSON {
		if fs == nil {
			fs = []Finding{}
		}
		if err := cmdutil.PrintJSON(opts.IO.Out, fs); err != nil {
			return err
		}
	} else {
		for _, f := range fs {
			fmt.Fprintf(opts.IO.Out, "%-7s %s\n        fix: %s\n", f.Severity, iostreams.Escape(f.location()), iostreams.Escape(f.Fix))
		}
		for _, st := range statuses {
			fmt.Fprintln(opts.IO.Out, "agent   "+iostreams.Escape(st.Line()))
		}
		fmt.Fprintln(opts.IO.Out, "prompt  "+iostreams.Escape(promptLessonsLine(c.cfg, opts.Getenv)))
		fmt.Fprintf(opts.IO.Out, "%d errors, %d warnings in %d lesson files\n", errors, len(fs)-errors, n)
	}
	if errors > 0 {
		return cmdutil.ErrSilent
	}
	return nil
}

// location is "file:line:column: field: message".
func (f Finding) location() string {
	s := f.File
	if f.Line > 0 {
		s += fmt.Sprintf(":%d:%d", f.Line, f.Column)
	}
	if f.Field != "" {
		s += ": " + f.Field
	}
	return s + ": " + f.Message
}
