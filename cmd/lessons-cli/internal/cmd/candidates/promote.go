package candidates

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scanner"
)

// PromoteOptions are promote's flags and dependencies.
type PromoteOptions struct {
	IO       *iostreams.IOStreams
	Promoter func() (*Promoter, error)

	IDs      []string
	Project  bool
	Global   bool
	Edit     bool
	JSON     bool
	Force    bool
	NoReplay bool
	// Replay replays a new lesson over the last week's logs
	// (replay.Preview).
	Replay func(lessons.Lesson, lessons.Config) string
}

// NewCmdPromote returns the promote command; runF replaces promoteRun in
// tests.
func NewCmdPromote(f *cmdutil.Factory, runF func(*PromoteOptions) error) *cobra.Command {
	opts := &PromoteOptions{IO: f.IOStreams, Promoter: func() (*Promoter, error) { return NewPromoter(f) },
		Replay: func(l lessons.Lesson, cfg lessons.Config) string {
			return replay.Preview(context.Background(), l, cfg, f.Getenv)
		}}
	cmd := &cobra.Command{
		Use:   "promote ID...",
		Short: "Turn candidates into lessons",
		Long: `Write each candidate (by id or unique id prefix, see lessons candidates) as
a lesson. By default it goes where the evidence points: the global store
(one git commit) when it was seen in two or more projects or the agent's
report said scope: global, else the .lessons directory of the project it
was seen in (written, not committed). --project or --global choose.

The lesson passes the same checks as lessons add: lengths, no template
placeholders, no summary ending in "...", regexes that compile, examples
that behave, and no lesson already saying the same thing or catching the
same mistake (each one's trigger fires on the other's example); --force
writes it anyway. --edit opens it in $VISUAL or $EDITOR first. Print the
new lessons' slugs.

When session logs of the last 7 days are there, each new trigger is
replayed over them (for at most 2 seconds; --no-replay skips it) and a
warning gives the figures when it would have fired more often before
calls that went fine than before failures.`,
		Example: `  lessons promote 1f2e3d4c5b6a
  lessons promote 1f2e 9a8b --global
  lessons promote 1f2e --project --edit`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Project && opts.Global {
				return cmdutil.FlagErrorf("--project and --global cannot be used together")
			}
			opts.IDs = args
			if runF != nil {
				return runF(opts)
			}
			return promoteRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Project, "project", false, "write into the project's .lessons")
	cmd.Flags().BoolVar(&opts.Global, "global", false, "write into the global store")
	cmd.Flags().BoolVar(&opts.Edit, "edit", false, "edit each lesson in $EDITOR before it is written")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print each new lesson's candidate, id, slug, scope and path as JSON")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "write the lesson even if an active lesson already catches the same mistake")
	cmd.Flags().BoolVar(&opts.NoReplay, "no-replay", false, "do not replay the new triggers over the last 7 days of session logs")
	return cmd
}

func (opts *PromoteOptions) dest() Dest {
	switch {
	case opts.Project:
		return DestProject
	case opts.Global:
		return DestGlobal
	}
	return DestDefault
}

func promoteRun(opts *PromoteOptions) error {
	p, err := opts.Promoter()
	if err != nil {
		return err
	}
	p.Force = opts.Force
	if !opts.NoReplay {
		p.Replay = opts.Replay
	}
	var done []Promoted
	var errs []error
	for _, id := range opts.IDs {
		c, err := p.Store.Get(id)
		if err == nil {
			var pr Promoted
			if pr, err = p.Promote(c, opts.dest(), opts.Edit); err == nil {
				done = append(done, pr)
				report(opts.IO, pr, !opts.JSON)
				continue
			}
		}
		errs = append(errs, err)
	}
	if opts.JSON {
		if done == nil {
			done = []Promoted{}
		}
		if err := cmdutil.PrintJSON(opts.IO.Out, done); err != nil {
			return err
		}
	}
	return errors.Join(errs...)
}

// report says what a promotion did: the slug on the output (unless
// JSON goes there), the rest on the error output.
func report(ios *iostreams.IOStreams, pr Promoted, slug bool) {
	if slug {
		fmt.Fprintln(ios.Out, pr.Slug)
	}
	for _, w := range pr.Warnings {
		fmt.Fprintf(ios.ErrOut, "warning: %s\n", iostreams.EscapeLine(w)) // notes quote a candidate from a log
	}
	fmt.Fprintf(ios.ErrOut, "promoted %s to %s (%s)\n", pr.Candidate, pr.Path, pr.Scope)
}

// RejectOptions are reject's dependencies and arguments.
type RejectOptions struct {
	IO    *iostreams.IOStreams
	Store func() *scanner.Store

	IDs []string
}

// NewCmdReject returns the reject command; runF replaces rejectRun in
// tests.
func NewCmdReject(f *cmdutil.Factory, runF func(*RejectOptions) error) *cobra.Command {
	opts := &RejectOptions{IO: f.IOStreams, Store: func() *scanner.Store { return scanner.OpenStore(f.Dirs().State) }}
	return &cobra.Command{
		Use:   "reject ID...",
		Short: "Drop candidates that are not lessons",
		Long: `Mark candidates (by id or unique id prefix) rejected: they are no longer
listed, and seeing the same mistake again does not bring them back
(lessons candidates --all still shows them).`,
		Example: `  lessons reject 1f2e3d4c5b6a
  lessons reject 1f2e 9a8b`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.IDs = args
			if runF != nil {
				return runF(opts)
			}
			return rejectRun(opts)
		},
	}
}

func rejectRun(opts *RejectOptions) error {
	s := opts.Store()
	var errs []error
	for _, id := range opts.IDs {
		c, err := s.Get(id)
		if err == nil {
			err = s.Reject(c.ID)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(opts.IO.ErrOut, "rejected %s: %s\n", c.ID, iostreams.Escape(c.Summary))
	}
	return errors.Join(errs...)
}
