// Package scan implements `lessons scan`.
package scan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/candidates"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// Options are scan's flags and dependencies.
type Options struct {
	IO       *iostreams.IOStreams
	Dirs     scope.Dirs
	Getenv   func(string) string
	Config   func() (lessons.Config, error)
	Promoter func() (*candidates.Promoter, error)
	// Now is the clock that decides which sessions are idle; nil means
	// time.Now.
	Now func() time.Time

	Paths   []string
	Full    bool
	Since   time.Duration
	JSON    bool
	Quiet   bool
	Promote bool
	// Timeout bounds the scan (0: none); see deadline.
	Timeout time.Duration
	// exit ends the process when a scan overruns its deadline; nil
	// means os.Exit.
	exit func(int)
}

// NewCmdScan returns the scan command; runF replaces scanRun in tests.
func NewCmdScan(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{
		IO: f.IOStreams, Getenv: f.Getenv,
		Config: func() (lessons.Config, error) {
			cfg, warnings, err := f.Config()
			cmdutil.PrintWarnings(f.IOStreams, warnings)
			return cfg, err
		},
		Promoter: func() (*candidates.Promoter, error) { return candidates.NewPromoter(f) },
	}
	var since string
	cmd := &cobra.Command{
		Use:   "scan",
		Short: "Find mistakes in agents' session logs",
		Long: `Read the session logs of Claude Code, Codex, Gemini CLI and opencode, and
propose lessons (candidates) from what went wrong: the agent's own #lesson
reports, failures followed by a different retry that worked, corrections
by the user, and tool calls the user rejected with a reason. Secrets are
redacted before anything is stored.

The paths are --path, else the scanPaths config, else where each agent
keeps its sessions. Scans are incremental: a file that did not change
since the last scan costs one stat; --full reads everything again. Only
one scan runs at a time; the hook starts one in the background when a
session starts (at most every scanIntervalMinutes).

The summary ends with how well each agent follows the #lesson protocol:
of the mistakes found in its sessions, how many it reported itself.

--promote turns the agent's own reports into lessons when they pass the
checks of lessons add; heuristic candidates always wait for
lessons review.`,
		Example: `  lessons scan
  lessons scan --path ~/.claude/projects --since 7d
  lessons scan --full --json
  lessons scan --quiet --promote`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if since != "" {
				d, err := cmdutil.ParseSince(since)
				if err != nil {
					return cmdutil.FlagErrorf("--since %s: %v", since, err)
				}
				opts.Since = d
			}
			opts.Dirs = f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return scanRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&opts.Paths, "path", nil, "file or directory of session logs; repeatable (default: scanPaths, else every agent's)")
	fl.BoolVar(&opts.Full, "full", false, "forget what earlier scans read and read everything again")
	fl.StringVar(&since, "since", "", "only files modified in the last `DUR` (90m, 24h, 7d)")
	fl.BoolVar(&opts.JSON, "json", false, "print the scan's report as JSON")
	fl.BoolVar(&opts.Quiet, "quiet", false, "print nothing but errors; exit 0 when another scan is running")
	fl.BoolVar(&opts.Promote, "promote", false, "promote the agents' own #lesson reports that pass the checks")
	fl.DurationVar(&opts.Timeout, "timeout", 30*time.Minute, "give up after `DUR`, so a stuck scan cannot hold the scan lock (0: no limit)")
	return cmd
}

// Result is scan's JSON output: the scanner's report, and what --promote
// made of it.
type Result struct {
	scanner.Report
	Promoted []candidates.Promoted `json:"promoted,omitempty"`
}

// memoryLimit is the soft heap limit of a scan, which often runs in the
// background: the scanner holds at most ~32 MiB of session data at once,
// and without a limit the garbage collector lets the heap grow to twice
// that and more (a first scan of a 131 MB opencode.db: 94 MiB peak RSS
// without the limit, 73 MiB with it, in the same time).
const memoryLimit = 64 << 20

// limitMemory sets memoryLimit unless GOMEMLIMIT already set one.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

func scanRun(ctx context.Context, opts *Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		defer deadline(opts, opts.Timeout+overrun).Stop()
	}
	limitMemory()
	paths, err := opts.paths()
	if err != nil {
		return err
	}
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	weights, err := scanner.DefaultWeights().With(cfg.Scoring)
	if err != nil {
		return err
	}
	rep, err := scanner.Scan(ctx, scanner.Options{
		StateDir: opts.Dirs.State, Paths: paths, Full: opts.Full, Since: opts.Since, Now: opts.Now, Weights: &weights,
		Progress: opts.IO.ErrOut, IsTerminal: opts.IO.IsStderrTTY() && !opts.Quiet && !opts.JSON,
		Known: opts.known,
	})
	if errors.Is(err, scanner.ErrBusy) {
		fmt.Fprintln(opts.IO.ErrOut, "another lessons scan is running; this one did nothing")
		if opts.Quiet {
			return nil
		}
		return cmdutil.ErrSilent
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return cmdutil.Hintf("lessons scan --timeout 0 to let it run; nothing it read was kept", "the scan stopped at its --timeout of %v", opts.Timeout)
	}
	if err != nil {
		return err
	}
	res := Result{Report: rep}
	if opts.Promote {
		if res.Promoted, err = opts.promoteTags(); err != nil {
			return err
		}
	}
	switch {
	case opts.JSON:
		return cmdutil.PrintJSON(opts.IO.Out, res)
	case opts.Quiet:
		return nil
	}
	printReport(opts.IO, res)
	return nil
}

// known returns the active lessons where the scan runs (built-in,
// global, packs and the project's), for the scanner to fold candidates
// that repeat one into it.
func (opts *Options) known() []lessons.Lesson {
	p, err := opts.Promoter()
	if err != nil {
		return nil
	}
	m := p.MergeAt(p.Cwd)
	out := make([]lessons.Lesson, len(m.Active))
	for i, r := range m.Active {
		out[i] = r.Lesson
	}
	return out
}

// overrun is how long a scan may go on past its timeout: the scanner
// stops between files, and a file takes well under a second.
const overrun = 30 * time.Second

// deadline ends the process after d: a scan that does not stop when its
// context ends (a read that never returns, on a hung network mount) holds
// the scan lock, so every later scan would do nothing. The lock is a
// file lock, which the system releases when the process exits.
func deadline(opts *Options, d time.Duration) *time.Timer {
	exit := opts.exit
	if exit == nil {
		exit = os.Exit
	}
	return time.AfterFunc(d, func() {
		fmt.Fprintf(opts.IO.ErrOut, "lessons scan: still running %v after it was told to stop; exiting to release the scan lock\n", d)
		exit(2)
	})
}

// paths are --path, else the config's scanPaths, else the agents'
// defaults, with a leading ~ expanded.
func (opts *Options) paths() ([]string, error) {
	home := opts.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	paths := opts.Paths
	if len(paths) == 0 {
		cfg, err := opts.Config()
		if err != nil {
			return nil, err
		}
		paths = cfg.ScanPaths
	}
	if len(paths) == 0 {
		return scanner.DefaultPaths(home), nil
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~"); ok && (rest == "" || rest[0] == '/') {
			p = home + rest
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		out = append(out, abs)
	}
	return out, nil
}

// promoteTags promotes the agents' own reports waiting for review where
// the evidence points. One that fails a check stays a candidate.
func (opts *Options) promoteTags() ([]candidates.Promoted, error) {
	p, err := opts.Promoter()
	if err != nil {
		return nil, err
	}
	cs, err := p.Store.List(scanner.ListOptions{})
	if err != nil {
		return nil, err
	}
	done := []candidates.Promoted{}
	for _, c := range cs {
		if c.Kind != scanner.KindTag || c.NeedsReview {
			continue
		}
		pr, err := p.Promote(c, candidates.DestDefault, false)
		if err != nil {
			if !opts.Quiet {
				fmt.Fprintf(opts.IO.ErrOut, "left %s for review: %v\n", c.ID, err)
			}
			continue
		}
		if !opts.Quiet && !opts.JSON {
			fmt.Fprintf(opts.IO.ErrOut, "promoted %s to %s (%s)\n", c.ID, pr.Path, pr.Scope)
		}
		done = append(done, pr)
	}
	return done, nil
}

// printReport prints the summary and the protocol compliance table.
func printReport(ios *iostreams.IOStreams, r Result) {
	w := ios.Out
	var bytes int64
	for _, f := range r.Formats {
		bytes += f.Bytes
	}
	fmt.Fprintf(w, "scanned %d files (%d unchanged), read %.1f MB in %s\n",
		r.Files, r.Unchanged, float64(bytes)/1e6, r.Duration.Round(time.Millisecond))
	fmt.Fprintf(w, "candidates: %d new, %d updated, from %d findings (%d #lesson tags)\n",
		r.NewCandidates, r.UpdatedCandidates, r.Findings, r.Tags)
	if len(r.Promoted) > 0 {
		fmt.Fprintf(w, "promoted: %d\n", len(r.Promoted))
	}
	s := r.Skipped
	var skipped []string
	for _, k := range []struct {
		n    int
		what string
	}{
		{s.InvalidLines, "invalid lines"}, {s.OverlongLines, "overlong lines"}, {s.UnknownFiles, "files of unknown format"},
		{s.UnreadableFiles, "unreadable files"}, {s.OversizedFiles, "oversized files"},
		{r.Malformed, "malformed #lesson blocks"}, {r.Templates, "#lesson templates"},
	} {
		if k.n > 0 {
			skipped = append(skipped, fmt.Sprintf("%d %s", k.n, k.what))
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "skipped: %s\n", strings.Join(skipped, ", "))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(ios.ErrOut, "warning: %s\n", iostreams.EscapeLine(fmt.Sprint(e))) // names a file found in the logs dir
	}
	cmdutil.PrintCompliance(ios, r.Agents)
	if n := r.NewCandidates; n > 0 {
		fmt.Fprintf(ios.ErrOut, "\nreview them with: lessons review\n")
	}
}
