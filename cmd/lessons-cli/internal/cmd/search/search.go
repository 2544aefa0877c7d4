// Package search implements `lessons search`.
package search

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Options are search's flags and dependencies.
type Options struct {
	IO    *iostreams.IOStreams
	Merge func() (scope.Merged, error)

	Query string
	All   bool
	JSON  bool
}

// NewCmdSearch returns the search command; runF replaces searchRun in
// tests.
func NewCmdSearch(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge}
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search lessons by summary, problem, solution and tags",
		Long: `Search the lessons that apply here for every word of QUERY, best match
first. Words in the summary count most, then tags, then problem and solution;
a word also matches the start of a longer one.`,
		Example: `  lessons search pytest hang
  lessons search "force push" --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Query = strings.Join(args, " ")
			if runF != nil {
				return runF(opts)
			}
			return searchRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "also search disabled, overridden and other excluded lessons")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// Result is one hit in search's JSON output.
type Result struct {
	ID      string   `json:"id"`
	Slug    string   `json:"slug"`
	Scope   string   `json:"scope"`
	Summary string   `json:"summary"`
	Tags    []string `json:"tags"`
	Score   float64  `json:"score"`
	Path    string   `json:"path"`
}

func searchRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	cmdutil.PrintWarnings(opts.IO, m.Warnings)
	pool := m.Active
	if opts.All {
		for _, e := range m.Excluded {
			pool = append(pool, e.Resolved)
		}
	}
	hits := Rank(pool, opts.Query)
	if opts.JSON {
		results := make([]Result, 0, len(hits))
		for _, h := range hits {
			tags := h.Tags
			if tags == nil {
				tags = []string{}
			}
			results = append(results, Result{ID: h.ID, Slug: h.Slug, Scope: string(h.Scope), Summary: h.Summary, Tags: tags, Score: h.Score, Path: h.Path})
		}
		return cmdutil.PrintJSON(opts.IO.Out, results)
	}
	if len(hits) == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "no lesson matches %q\n", opts.Query)
		return cmdutil.ErrSilent
	}
	t := opts.IO.NewTable()
	if opts.IO.IsStdoutTTY() {
		t.Row("SLUG", "SCOPE", "SCORE", "SUMMARY")
	}
	for _, h := range hits {
		t.Row(h.Slug, string(h.Scope), strconv.FormatFloat(h.Score, 'g', 3, 64), h.Summary)
	}
	return t.Flush()
}
