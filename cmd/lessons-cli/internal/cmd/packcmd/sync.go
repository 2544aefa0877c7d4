package packcmd

import (
	"cmp"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo/pack"
	"github.com/lessons-dev/lessons/scope"
)

// SyncOptions are sync's and update's flags and dependencies.
type SyncOptions struct {
	IO  *iostreams.IOStreams
	Env func() (*env, error)

	Frozen bool
	Update bool
	JSON   bool
	Names  []string
}

// SyncItem is one pack in sync's and update's JSON output.
type SyncItem struct {
	Name string `json:"name"`
	URL  string `json:"url"` // without credentials
	Ref  string `json:"ref"`
	Lock string `json:"lock"` // the lessons.lock that pins it
	// Status is activated, updated, current or failed.
	Status   string `json:"status"`
	Commit   string `json:"commit"`   // active now, "" when nothing is
	Previous string `json:"previous"` // active before
	Lessons  int    `json:"lessons"`
	// Offline is why the remote could not be reached, when the cached
	// version served instead.
	Offline string     `json:"offline,omitempty"`
	Diff    *pack.Diff `json:"diff,omitempty"` // what update changed
	Error   string     `json:"error,omitempty"`
	// Overrides are the lessons of other scopes that the pack's lessons
	// replace, or tried to replace and may not.
	Overrides []OverrideItem `json:"overrides"`
}

// OverrideItem is one lesson of a pack reusing the slug or id of a lesson
// of a lower scope (built-in, global).
type OverrideItem struct {
	Lesson        string `json:"lesson"`        // the pack's lesson
	Replaces      string `json:"replaces"`      // the slug of the lesson it reuses
	ReplacesScope string `json:"replacesScope"` // builtin, global, or pack:NAME
	ReplacesPath  string `json:"replacesPath"`
	// Refused is true when the replaced lesson blocks and the pack may
	// not block: the blocking lesson stays active.
	Refused bool `json:"refused"`
}

// overridesOf lists the overrides that pack name's lessons make in m.
func overridesOf(m scope.Merged, name string) []OverrideItem {
	out := []OverrideItem{}
	for _, o := range m.Overrides {
		if o.By.Scope.Pack() == name {
			out = append(out, OverrideItem{Lesson: o.By.Slug, Replaces: o.Of.Slug, ReplacesScope: string(o.Of.Scope),
				ReplacesPath: o.Of.Path, Refused: o.Refused})
		}
	}
	return out
}

func syncItem(r pack.Result, m scope.Merged) SyncItem {
	it := SyncItem{Name: r.Name, URL: r.URL, Ref: r.Ref, Lock: r.Lock, Commit: r.Commit, Previous: r.Previous,
		Lessons: r.Lessons, Diff: r.Diff, Status: "current", Overrides: overridesOf(m, r.Name)}
	switch {
	case r.Err != nil:
		it.Status, it.Error = "failed", r.Err.Error()
	case r.Diff != nil && !(r.Previous == r.Commit && r.Diff.Empty()):
		it.Status = "updated"
	case r.Activated:
		it.Status = "activated"
	}
	if r.Offline != nil {
		it.Offline = r.Offline.Error()
	}
	return it
}

// NewCmdSync returns `lessons sync`; runF replaces syncRun in tests.
func NewCmdSync(f *cmdutil.Factory, runF func(*SyncOptions) error) *cobra.Command {
	opts := &SyncOptions{IO: f.IOStreams, Env: func() (*env, error) { return newEnv(f) }}
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Fetch the subscribed packs at the commits lessons.lock pins",
		Long: `For each subscribed pack, clone it on first use or fetch it (a bare clone
per pack in the user cache directory), and make active exactly the commit
pinned in the lessons.lock beside the config that subscribes to it. A pack
with no entry is resolved from its ref and recorded. Every lesson of a new
version is checked first (schema, regexes, backtracking, size limits, no
links or files outside lessons/); a version that fails stays inactive and
the previous one stays active. Then the manifest is rebuilt.

When a remote cannot be reached, the cached version at the locked commit
stays in use and sync says so; it fails only with --frozen or when nothing
is cached. --frozen also fails when lessons.lock would change: run it in CI.`,
		Example: `  lessons sync
  lessons sync --frozen   # in CI: the lock must already be right
  lessons sync --json     # one object per pack: status, commit, offline, error`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return syncRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Frozen, "frozen", false, "fail when lessons.lock would change or a remote cannot be reached")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print each pack's outcome as JSON")
	return cmd
}

// NewCmdUpdate returns `lessons update`; runF replaces syncRun in tests.
func NewCmdUpdate(f *cmdutil.Factory, runF func(*SyncOptions) error) *cobra.Command {
	opts := &SyncOptions{IO: f.IOStreams, Env: func() (*env, error) { return newEnv(f) }, Update: true}
	cmd := &cobra.Command{
		Use:   "update [NAME...]",
		Short: "Move packs to the newest commit of their ref",
		Long: `Pin each named pack (every subscribed pack when none is named) to the
newest commit of its ref in lessons.lock, activate it after checking every
lesson, and print the lessons it added, changed and removed. Commit the
lock file so the team follows.`,
		Example: `  lessons update
  lessons update acme
  lessons update --json   # per pack: previous and new commit, diff of slugs`,
		ValidArgsFunction: completePacks(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Names = args
			if runF != nil {
				return runF(opts)
			}
			return syncRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print each pack's outcome as JSON")
	return cmd
}

func syncRun(cmd *cobra.Command, opts *SyncOptions) error {
	e, err := opts.Env()
	if err != nil {
		return err
	}
	configs, err := e.configs()
	if err != nil {
		return err
	}
	subs, shadowed := pack.Subscriptions(configs...)
	for _, s := range shadowed {
		fmt.Fprintf(opts.IO.ErrOut, "note: %s\n", s)
	}
	if len(subs) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no packs subscribed here; add one with: lessons pack add URL")
		if opts.JSON {
			return cmdutil.PrintJSON(opts.IO.Out, []SyncItem{})
		}
		return nil
	}
	globalLock := pack.LockPath(e.dirs.GlobalConfig())
	before, _ := os.ReadFile(globalLock)
	results, lockErr := e.syncer.Sync(ctx(cmd), configs, pack.Options{Frozen: opts.Frozen, Update: opts.Update, Names: opts.Names})
	failed := lockErr != nil
	activated := false
	for _, r := range results {
		failed = failed || r.Err != nil
		activated = activated || r.Activated
	}
	var commitErr error
	if after, _ := os.ReadFile(globalLock); string(after) != string(before) {
		commitErr = e.commitGlobal("lock packs", globalLock)
	}
	// The merge says what the packs' lessons override, now that they are
	// active; it is also the rebuilt manifest's input.
	var merged scope.Merged
	var rebuildErr error
	if activated && commitErr == nil {
		merged, rebuildErr = e.rebuild()
	} else {
		merged = scope.Merge(e.dirs, e.cwd, e.loader)
	}
	items := []SyncItem{}
	for _, r := range results {
		if opts.JSON {
			items = append(items, syncItem(r, merged))
		} else {
			printResult(opts.IO, r, overridesOf(merged, r.Name))
		}
	}
	if lockErr != nil {
		fmt.Fprintf(opts.IO.ErrOut, "error: %v\n", lockErr)
	}
	if err := cmp.Or(commitErr, rebuildErr); err != nil {
		return err
	}
	if opts.JSON {
		if err := cmdutil.PrintJSON(opts.IO.Out, items); err != nil {
			return err
		}
	}
	if failed {
		return cmdutil.ErrSilent
	}
	return nil
}

// printResult reports one pack: what is active on the output, problems
// on the error output.
func printResult(ios *iostreams.IOStreams, r pack.Result, overrides []OverrideItem) {
	defer printOverrides(ios, r.Name, overrides)
	if r.Err != nil {
		fmt.Fprintf(ios.ErrOut, "error: %s\n", iostreams.Escape(r.Err.Error()))
		return
	}
	if r.Offline != nil {
		fmt.Fprintf(ios.ErrOut, "warning: pack %s: offline, using the cached version %s: %v\n", r.Name, short(r.Commit), r.Offline)
	}
	switch {
	case r.Diff != nil && r.Previous == r.Commit && r.Diff.Empty():
		fmt.Fprintf(ios.Out, "%s: already at the newest commit %s (%d lessons)\n", r.Name, short(r.Commit), r.Lessons)
	case r.Diff != nil:
		fmt.Fprintf(ios.Out, "%s: %s → %s (%d lessons): %d added, %d changed, %d removed\n", r.Name, orNone(short(r.Previous)), short(r.Commit),
			r.Lessons, len(r.Diff.Added), len(r.Diff.Changed), len(r.Diff.Removed))
		for _, group := range []struct {
			mark  string
			slugs []string
		}{{"+", r.Diff.Added}, {"~", r.Diff.Changed}, {"-", r.Diff.Removed}} {
			for _, slug := range group.slugs {
				fmt.Fprintf(ios.Out, "  %s %s\n", group.mark, slug)
			}
		}
	case r.Activated:
		fmt.Fprintf(ios.Out, "%s: activated %s (%d lessons), was %s\n", r.Name, short(r.Commit), r.Lessons, orNone(short(r.Previous)))
	default:
		fmt.Fprintf(ios.Out, "%s: up to date at %s (%d lessons)\n", r.Name, short(r.Commit), r.Lessons)
	}
}

// printOverrides reports every lesson of another scope that pack name's
// lessons replace, and those they may not replace.
func printOverrides(ios *iostreams.IOStreams, name string, overrides []OverrideItem) {
	for _, o := range overrides {
		if o.Refused {
			fmt.Fprintf(ios.ErrOut, "warning: pack %s: lesson %s reuses the slug or id of the blocking %s lesson %s: refused, %s stays active "+
				"(a pack may not unblock unless subscribed with --allow-block; to turn the block off yourself: lessons disable %s)\n",
				name, o.Lesson, o.ReplacesScope, o.Replaces, o.Replaces, o.Replaces)
			continue
		}
		fmt.Fprintf(ios.Out, "  %s: lesson %s replaces the %s lesson %s\n", name, o.Lesson, o.ReplacesScope, o.Replaces)
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// completePacks completes the names of the subscribed packs.
func completePacks(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		e, err := newEnv(f)
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		configs, err := e.configs()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		subs, _ := pack.Subscriptions(configs...)
		var names []string
		for _, s := range subs {
			names = append(names, s.Name+"\t"+pack.Redact(s.URL))
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}
