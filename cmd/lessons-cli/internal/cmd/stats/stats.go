// Package stats implements `lessons stats`.
package stats

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// Result is what stats --json prints: the event log's figures, and per
// agent how well it follows the #lesson protocol.
type Result struct {
	*engine.StatsReport
	Agents []scanner.AgentReport `json:"agents"`
}

// Options are stats' flags and dependencies.
type Options struct {
	IO    *iostreams.IOStreams
	State string
	Merge func() (scope.Merged, error)
	Now   func() time.Time

	Days int
	JSON bool
}

// NewCmdStats returns the stats command; runF replaces statsRun in tests.
func NewCmdStats(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge, Now: f.Now}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Show which lessons the hook used",
		Long: `Read the hook's event log (in the state directory; nothing leaves the
machine) and show, for each lesson, how many times it was injected and how
many tool calls it blocked, in how many distinct sessions, and when it was
last used; then the lessons active here that never fired in the last
--days days, which may be worth a better trigger or removal; then, from the
scans of session logs so far, how often each agent reported its own
mistakes with #lesson tags; then, per agent, live capture's nudges (the
hook asking for a #lesson block right after a fix or a rejection) and in
how many of the nudged sessions a scan found a #lesson block.`,
		Example: `  lessons stats
  lessons stats --days 7 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Days <= 0 {
				return cmdutil.FlagErrorf("--days must be positive, not %d", opts.Days)
			}
			opts.State = f.Dirs().State
			if runF != nil {
				return runF(opts)
			}
			return statsRun(opts)
		},
	}
	cmd.Flags().IntVar(&opts.Days, "days", 30, "list active lessons that did not fire in this many `days`")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func statsRun(opts *Options) error {
	now := opts.Now()
	rep, err := engine.Stats(opts.State, nil, opts.Days, now)
	if err != nil {
		return fmt.Errorf("read the event log: %w", err)
	}
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	cmdutil.PrintWarnings(opts.IO, m.Warnings)
	rep.Idle = idle(rep.Lessons, m.Active, now.AddDate(0, 0, -opts.Days))
	agents, err := scanner.Compliance(opts.State)
	if err != nil {
		return fmt.Errorf("read the scan state: %w", err)
	}
	if err := countLessonBlocks(opts.State, rep.Nudges); err != nil {
		return fmt.Errorf("read the scan's candidates: %w", err)
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, Result{StatsReport: rep, Agents: agents})
	}
	if rep.Skipped > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %d lines of the event log did not parse\n", rep.Skipped)
	}
	if rep.Overlong > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %d lines of the event log were over 1 MiB and were skipped (%s)\n", rep.Overlong, engine.EventsPath(opts.State))
	}
	if len(rep.Lessons) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no lesson was injected or blocked a call yet")
	} else {
		t := opts.IO.NewTable()
		if opts.IO.IsStdoutTTY() {
			t.Row("SLUG", "INJECTIONS", "BLOCKS", "SESSIONS", "LAST USED")
		}
		for _, s := range rep.Lessons {
			t.Row(s.Slug, strconv.Itoa(s.Injections), strconv.Itoa(s.Blocks), strconv.Itoa(s.Sessions),
				s.LastUsed.Local().Format(time.DateTime))
		}
		if err := t.Flush(); err != nil {
			return err
		}
	}
	if len(rep.Idle) > 0 {
		fmt.Fprintf(opts.IO.Out, "\nactive lessons that never fired in the last %d days (%d):\n", opts.Days, len(rep.Idle))
		for _, slug := range rep.Idle {
			fmt.Fprintf(opts.IO.Out, "  %s\n", iostreams.Escape(slug))
		}
	}
	cmdutil.PrintCompliance(opts.IO, agents)
	printNudges(opts.IO, rep.Nudges)
	return nil
}

// idle are the active lessons not used since, sorted.
func idle(used []engine.LessonStats, active []scope.Resolved, since time.Time) []string {
	last := map[string]time.Time{}
	for _, s := range used {
		last[s.Slug] = s.LastUsed
	}
	out := []string{}
	for _, r := range active {
		if t, ok := last[r.Slug]; !ok || t.Before(since) {
			out = append(out, r.Slug)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
