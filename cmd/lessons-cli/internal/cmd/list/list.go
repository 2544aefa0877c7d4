// Package list implements `lessons list`.
package list

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Options are list's flags and dependencies.
type Options struct {
	IO    *iostreams.IOStreams
	Merge func() (scope.Merged, error)

	Scope string
	Tag   string
	Tool  string
	All   bool
	JSON  bool
}

// NewCmdList returns the list command; runF replaces listRun in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the lessons that apply here",
		Long: `List the lessons that apply to the current directory: built-in, global,
team packs, and the project's. Without --all, only the active ones.`,
		Example: `  lessons list
  lessons list --scope project
  lessons list --tag lang:python --tool Bash
  lessons list --all --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Scope != "" && !validScope(opts.Scope) {
				return cmdutil.FlagErrorf("--scope must be builtin, global, pack, pack:<name> or project, not %q", opts.Scope)
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Scope, "scope", "", "only lessons from `scope`: builtin, global, pack[:name] or project")
	cmd.Flags().StringVar(&opts.Tag, "tag", "", "only lessons with `tag` (category:value, or just the value)")
	cmd.Flags().StringVar(&opts.Tool, "tool", "", "only lessons that trigger on `tool` (e.g. Bash, Edit)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "include disabled, overridden and other excluded lessons, marked")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	_ = cmd.RegisterFlagCompletionFunc("scope", cobra.FixedCompletions(
		[]string{"builtin", "global", "pack", "project"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("tool", cobra.FixedCompletions(lessons.CanonicalTools, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func validScope(s string) bool {
	switch s {
	case "builtin", "global", "pack", "project":
		return true
	}
	return lessons.Scope(s).Pack() != ""
}

// Item is one lesson in list's JSON output.
type Item struct {
	ID       string   `json:"id"`
	Slug     string   `json:"slug"`
	Scope    string   `json:"scope"`
	Summary  string   `json:"summary"`
	Priority int      `json:"priority"`
	Tags     []string `json:"tags"`
	Tools    []string `json:"tools"`
	Block    bool     `json:"block"`
	Disabled bool     `json:"disabled"`
	// Excluded is why the lesson is not active ("" when it is).
	Excluded string `json:"excluded"`
	Path     string `json:"path"`
}

func listRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	cmdutil.PrintWarnings(opts.IO, m.Warnings)
	for _, o := range m.Overrides {
		if o.Refused {
			fmt.Fprintf(opts.IO.ErrOut, "warning: %s lesson %s reuses the slug or id of the blocking %s lesson %s: refused, %s stays active (%s may not block)\n",
				o.By.Scope, o.By.Slug, o.Of.Scope, o.Of.Slug, o.Of.Slug, o.By.Scope)
		}
	}
	items := Items(m, opts.All)
	items = slices.DeleteFunc(items, func(it Item) bool { return !opts.keep(it) })
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, items)
	}
	if len(items) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no lessons match")
		return nil
	}
	t := opts.IO.NewTable()
	if opts.IO.IsStdoutTTY() {
		header := []string{"SLUG", "SCOPE", "PRIORITY", "SUMMARY"}
		if opts.All {
			header = slices.Insert(header, 3, "STATUS")
		}
		t.Row(header...)
	}
	for _, it := range items {
		row := []string{it.Slug, it.Scope, strconv.Itoa(it.Priority), it.Summary}
		if opts.All {
			status := "active"
			if it.Excluded != "" {
				status = it.Excluded
			}
			row = slices.Insert(row, 3, status)
		}
		t.Row(row...)
	}
	return t.Flush()
}

// Items lists the merged lessons sorted by slug then scope: the active
// ones, and with all the excluded ones too.
func Items(m scope.Merged, all bool) []Item {
	var items []Item
	for _, r := range m.Active {
		items = append(items, item(r, ""))
	}
	if all {
		for _, e := range m.Excluded {
			items = append(items, item(e.Resolved, e.Reason))
		}
	}
	slices.SortStableFunc(items, func(a, b Item) int {
		if c := strings.Compare(a.Slug, b.Slug); c != 0 {
			return c
		}
		return lessons.Scope(a.Scope).Rank() - lessons.Scope(b.Scope).Rank()
	})
	return items
}

func item(r scope.Resolved, excluded string) Item {
	return Item{
		ID: r.ID, Slug: r.Slug, Scope: string(r.Scope), Summary: r.Summary,
		Priority: r.EffectivePriority(),
		Tags:     nonNil(r.Tags),
		Tools:    nonNil(r.Triggers.ImpliedTools()),
		Block:    r.Block,
		Disabled: excluded == "disabled",
		Excluded: excluded,
		Path:     r.Path,
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (opts *Options) keep(it Item) bool {
	if opts.Scope != "" && it.Scope != opts.Scope && lessons.Scope(it.Scope).Kind() != opts.Scope {
		return false
	}
	if opts.Tag != "" && !slices.ContainsFunc(it.Tags, func(t string) bool {
		_, value, _ := strings.Cut(t, ":")
		return t == opts.Tag || value == opts.Tag
	}) {
		return false
	}
	if opts.Tool != "" && !slices.ContainsFunc(it.Tools, func(t string) bool {
		ok, _ := path.Match(t, opts.Tool)
		return t == opts.Tool || ok
	}) {
		return false
	}
	return true
}
