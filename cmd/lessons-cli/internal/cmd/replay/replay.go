// Package replay implements `lessons replay`: what the lessons would have
// done on the user's own past sessions.
package replay

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// Options are replay's flags and dependencies.
type Options struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string
	Merge  func() (scope.Merged, error)

	Paths []string
	Since time.Duration
	JSON  bool
	// Learn is "", LearnAll or LearnTags.
	Learn string
	// MaxNoise is the gate's rate; negative turns the gate off.
	MaxNoise float64
	// MinFires is the fewest fires from which the gate judges a lesson.
	MinFires int
	// Trace is the file the per-call trace goes to ("" for none).
	Trace string
	// Scope keeps only the lessons of one scope ("" keeps all).
	Scope string
	// AsProject, when set, is every session's project.
	AsProject string

	Slugs []string
}

// NewCmdReplay returns the replay command; runF replaces replayRun in
// tests.
func NewCmdReplay(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Getenv: f.Getenv, Merge: f.Merge}
	var since string
	cmd := &cobra.Command{
		Use:   "replay [SLUG...]",
		Short: "Show what the lessons would have done on past sessions",
		Long: `Read the session logs lessons scan reads, oldest session first, and run
every tool call through the lessons active here as the hook would have:
the same matcher, ranking, byte budget and once-per-session claims, with
the claims held in memory (no session state, no event log is touched).
With SLUG arguments only those lessons are replayed.

A failed call's key is its command family (the command of the line that
failed: "Bash go test", "Bash python -m pytest") and its error class
(the exception's name, "command not found: NAME", "missing path",
"usage", else the first error line with its values masked). A repeat is
a failed call whose key failed in an earlier session of the same
project. The report leads with repeats, then (with --learn) prevented,
shortened and unrelated, then injections, blocks and, per lesson: fires,
fires before failed and fine calls, fires before a failure it addresses,
precision (those ÷ fires) and fires per 100 calls of its tools. The
prompts typed in Claude Code sessions go through the prompt-time
selection: prompt-time injections and bytes per 100 prompts (none unless
promptLessons is on).

--learn walks the sessions in time order and, at each session boundary,
adds as provisional lessons the candidates a scan of every earlier
session would have proposed at or above minConfidence (--learn=tags: only
the agents' own #lesson reports). A learned lesson seen in one project
applies only there; seen in two or more, everywhere. It keeps the failed
calls it was learned from. A failed call is prevented when a lesson
learned from a failure with its key fired before it, shortened when one
reached the agent with its failure, unrelated when only other learned
lessons fired before it.

--trace FILE writes one JSON line per call and per typed prompt
(docs/replay.md) from which every figure can be recounted; with --learn
also one each time a learned lesson takes a form (learned, live or not,
its confidence and triggers).

A session's project is the directory its log names, or, for a worktree
an agent made for a task (Claude Code's .claude/worktrees/NAME, Codex's
worktrees/ID/REPO, Conductor's workspaces/REPO/NAME), the repository's:
one repository worked in several clones or machines reads as several
projects, and what was learned in one stays there. --as-project NAME
counts every session read as one project: a team's history of one
repository.

--max-noise RATE is a gate for CI: exit 1 when a pitfall lesson (the
named ones, else all) with at least --min-fires fires has a noise (the
share of its fires not before a failure it addresses, 1 − precision)
above RATE. Hazards (lessons that refuse harmful calls) are not gated. A
team pack's CI runs it on the session logs the pack keeps in corpus/
(lessons pack init scaffolds it).

Unreadable files, files of an unknown format, lines that are not JSON
records (a truncated log) and lessons that do not load or compile are
counted and named in the report.`,
		Example: `  lessons replay
  lessons replay --path ~/.claude/projects --since 30d
  lessons replay --learn --json
  lessons replay --path corpus --max-noise 0.9 my-lesson
  lessons replay --path corpus --scope global --max-noise 0.9
  lessons replay --learn --trace /tmp/trace.jsonl
  lessons replay --learn --path team-logs/ --as-project myrepo`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if since != "" {
				d, err := cmdutil.ParseSince(since)
				if err != nil {
					return cmdutil.FlagErrorf("--since %s: %v", since, err)
				}
				opts.Since = d
			}
			switch opts.Learn {
			case "", LearnAll, LearnTags:
			default:
				return cmdutil.FlagErrorf("--learn=%s: want --learn or --learn=tags", opts.Learn)
			}
			if cmd.Flags().Changed("max-noise") && (opts.MaxNoise < 0 || opts.MaxNoise > 1) {
				return cmdutil.FlagErrorf("--max-noise %g: want a rate between 0 and 1", opts.MaxNoise)
			}
			if !cmd.Flags().Changed("max-noise") {
				opts.MaxNoise = -1
			}
			if opts.MinFires < 1 {
				return cmdutil.FlagErrorf("--min-fires %d: want 1 or more", opts.MinFires)
			}
			opts.Slugs = args
			if runF != nil {
				return runF(opts)
			}
			return replayRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&opts.Paths, "path", nil, "file or directory of session logs; repeatable (default: scanPaths, else every agent's)")
	fl.StringVar(&since, "since", "", "only files modified in the last `DUR` (90m, 24h, 7d)")
	fl.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	fl.StringVar(&opts.Learn, "learn", "", "learn from earlier sessions as it goes (`=tags`: from #lesson reports only)")
	fl.Lookup("learn").NoOptDefVal = LearnAll
	fl.StringVar(&opts.Scope, "scope", "", "replay only the lessons of `SCOPE` (builtin, global, project, pack:NAME)")
	fl.Float64Var(&opts.MaxNoise, "max-noise", 0, "exit 1 when a pitfall's share of fires not before a failure it addresses is over `RATE`")
	fl.IntVar(&opts.MinFires, "min-fires", defaultMinFires, "judge the noise of lessons with at least `N` fires")
	fl.StringVar(&opts.Trace, "trace", "", "write one JSON line per call, per prompt and per learned lesson's form to `FILE`")
	fl.StringVar(&opts.AsProject, "as-project", "", "count every session read as one project named `NAME`")
	return cmd
}

// GateReport is the --max-noise verdict.
type GateReport struct {
	MaxNoise float64 `json:"maxNoise"`
	MinFires int     `json:"minFires"`
	// Noisy are the lessons over the rate.
	Noisy []string `json:"noisy"`
}

func replayRun(ctx context.Context, opts *Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	tuneGC()
	mg, err := opts.Merge()
	if err != nil {
		return err
	}
	if mg.Config, err = mg.Config.ApplyEnv(opts.Getenv); err != nil {
		return err
	}
	if opts.Scope != "" {
		mg.Active = slices.DeleteFunc(mg.Active, func(r scope.Resolved) bool { return string(r.Scope) != opts.Scope })
	}
	if len(opts.Slugs) > 0 {
		if mg.Active, err = only(mg.Active, opts.Slugs); err != nil {
			return err
		}
	}
	paths := Paths(opts.Paths, mg.Config, opts.Getenv)
	weights, err := scanner.DefaultWeights().With(mg.Config.Scoring)
	if err != nil {
		return err
	}
	var trace *os.File
	if opts.Trace != "" {
		if trace, err = os.Create(opts.Trace); err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
		defer trace.Close()
	}
	job := Job{
		Merged: mg, Learn: opts.Learn, Weights: weights, MinFires: opts.MinFires,
		Read: scanner.ReadOptions{Paths: paths, Since: opts.Since, Project: opts.AsProject, Progress: opts.IO.ErrOut,
			IsTerminal: opts.IO.IsStderrTTY() && !opts.JSON},
	}
	if trace != nil {
		job.Trace = trace
	}
	rep, err := Run(ctx, job)
	if err != nil {
		return err
	}
	if trace != nil {
		if err := trace.Close(); err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
	}
	if opts.MaxNoise >= 0 {
		rep.Gate = gate(rep, opts.MaxNoise, opts.MinFires)
	}
	if opts.JSON {
		err = cmdutil.PrintJSON(opts.IO.Out, rep)
	} else {
		err = printReport(opts.IO, rep)
	}
	if err != nil {
		return err
	}
	if rep.Gate != nil && len(rep.Gate.Noisy) > 0 {
		return &cmdutil.ExitError{Code: 1, Err: fmt.Errorf("%d %s fired more than %g of the time not before a failure they address: %s",
			len(rep.Gate.Noisy), plural(len(rep.Gate.Noisy), "lesson", "lessons"), opts.MaxNoise, strings.Join(rep.Gate.Noisy, ", "))}
	}
	return nil
}

// tuneGC makes the collector run less often than Go's default, whose
// cycles every few megabytes of a small live heap cost a replay a tenth
// of its time, under a soft limit that keeps the peak well below
// 150 MiB; GOGC and GOMEMLIMIT still win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(96 << 20)
	}
}

// gate lists the pitfalls with at least minFires fires whose noise is
// over max. Learned lessons are not gated: they are what is measured.
func gate(rep *Report, max float64, minFires int) *GateReport {
	g := &GateReport{MaxNoise: max, MinFires: minFires, Noisy: []string{}}
	for _, l := range rep.Lessons {
		if !l.Provisional && l.Noise != nil && l.Fires >= minFires && *l.Noise > max {
			g.Noisy = append(g.Noisy, l.Slug)
		}
	}
	slices.Sort(g.Noisy)
	return g
}

// only keeps the lessons named by slug or id; an unknown name is an
// error.
func only(active []scope.Resolved, names []string) ([]scope.Resolved, error) {
	var out []scope.Resolved
	for _, n := range names {
		i := slices.IndexFunc(active, func(r scope.Resolved) bool { return r.Slug == n || r.ID == n })
		if i < 0 {
			return nil, cmdutil.Hintf("lessons list", "no active lesson %q here", n)
		}
		out = append(out, active[i])
	}
	return out, nil
}

// Paths are the log paths a replay reads: paths, else the config's
// scanPaths, else every agent's own, with a leading ~ expanded.
func Paths(paths []string, cfg lessons.Config, getenv func(string) string) []string {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if len(paths) == 0 {
		paths = cfg.ScanPaths
	}
	if len(paths) == 0 {
		return scanner.DefaultPaths(home)
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~"); ok && (rest == "" || rest[0] == '/') {
			p = home + rest
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
