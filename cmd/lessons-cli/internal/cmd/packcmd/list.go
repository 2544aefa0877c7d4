package packcmd

import (
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo/pack"
	"github.com/lessons-dev/lessons/scope"
)

// ListOptions are pack list's flags and dependencies.
type ListOptions struct {
	IO  *iostreams.IOStreams
	Env func() (*env, error)

	JSON bool
}

// NewCmdList returns `lessons pack list`; runF replaces listRun in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IOStreams, Env: func() (*env, error) { return newEnv(f) }}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the packs subscribed here",
		Long: `List the packs the global config and the project's subscribe to (the
project's wins on a name): URL, ref, the commit lessons.lock pins, the
lessons active now and when the pack last synced.`,
		Example: `  lessons pack list
  lessons pack list --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// Item is one pack in pack list's JSON output.
type Item struct {
	Name       string `json:"name"`
	URL        string `json:"url"`
	Ref        string `json:"ref"`
	Scope      string `json:"scope"` // global or project
	Config     string `json:"config"`
	AllowBlock bool   `json:"allowBlock"`
	// LockedCommit is the commit lessons.lock pins, "" before a sync.
	LockedCommit string `json:"lockedCommit"`
	// ActiveCommit is the commit whose lessons the hook reads.
	ActiveCommit string `json:"activeCommit"`
	Lessons      int    `json:"lessons"`
	// LastSync is when the pack last synced with its remote (RFC 3339),
	// "" when it never did.
	LastSync string `json:"lastSync"`
}

// Items lists the subscribed packs with their lock and cache state.
func Items(e *env) ([]Item, error) {
	configs, err := e.configs()
	if err != nil {
		return nil, err
	}
	subs, _ := pack.Subscriptions(configs...)
	items := []Item{}
	for _, s := range subs {
		it := Item{
			Name: s.Name, URL: pack.Redact(s.URL), Ref: s.Ref, Scope: e.scopeOf(configOf(s.Lock, configs)),
			Config: configOf(s.Lock, configs), AllowBlock: s.AllowBlock,
		}
		lock, err := pack.ReadLock(s.Lock)
		if err != nil {
			return nil, err
		}
		if entry := lock.Entry(s.Name); entry != nil {
			it.LockedCommit = entry.Commit
		}
		if name, ok := lessons.BuiltinPackName(s.URL); ok {
			ls, _ := e.loader.Lessons(scope.Store{Scope: lessons.PackScope(s.Name), Dir: path.Join(scope.BuiltinPacksDir, name), Embedded: true})
			it.Lessons = len(ls)
			items = append(items, it)
			continue
		}
		dir := e.dirs.PackDir(s.Name, filepath.Dir(s.Lock))
		if a, err := pack.ReadActive(dir); err == nil && a != nil {
			it.ActiveCommit, it.Lessons = a.Commit, a.Lessons
		}
		if t := pack.LastSync(e.dirs.PackRoot(s.Name)); !t.IsZero() {
			it.LastSync = t.UTC().Format(time.RFC3339)
		}
		items = append(items, it)
	}
	return items, nil
}

// configOf is the config beside a lock file.
func configOf(lock string, configs []pack.Scoped) string {
	for _, sc := range configs {
		if pack.LockPath(sc.Path) == lock {
			return sc.Path
		}
	}
	return ""
}

func listRun(opts *ListOptions) error {
	e, err := opts.Env()
	if err != nil {
		return err
	}
	items, err := Items(e)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, items)
	}
	if len(items) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no packs subscribed here; add one with: lessons pack add URL")
		return nil
	}
	t := opts.IO.NewTable()
	if opts.IO.IsStdoutTTY() {
		t.Row("NAME", "SCOPE", "REF", "LOCKED", "LESSONS", "LAST SYNC", "URL")
	}
	for _, it := range items {
		ref := it.Ref
		if ref == "" {
			ref = "(default)"
		}
		locked, synced := short(it.LockedCommit), it.LastSync
		if locked == "" {
			locked = "-"
		}
		if synced == "" {
			synced = "never"
		}
		t.Row(it.Name, it.Scope, ref, locked, strconv.Itoa(it.Lessons), synced, it.URL)
	}
	return t.Flush()
}

// short abbreviates a commit hash.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
