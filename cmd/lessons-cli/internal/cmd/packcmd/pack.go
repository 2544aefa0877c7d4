package packcmd

import (
	"cmp"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/repo/pack"
	"github.com/lessons-dev/lessons/scope"
)

// NewCmdPack returns `lessons pack` and its subcommands.
func NewCmdPack(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pack",
		Short: "Create team packs and subscribe to them",
		Long: `A team pack is a git repository of lessons (pack.yaml and lessons/*.yaml)
that a team reviews by pull request. Subscribe to one with "lessons pack add",
fetch it with "lessons sync", propose a lesson with "lessons submit".`,
	}
	cmd.AddCommand(NewCmdInit(f, nil), NewCmdAdd(f, nil), NewCmdList(f, nil), NewCmdRm(f, nil))
	return cmd
}

// InitOptions are pack init's flags.
type InitOptions struct {
	IO   *iostreams.IOStreams
	Dir  string
	Meta pack.Meta
}

// NewCmdInit returns `lessons pack init`; runF replaces initRun in tests.
func NewCmdInit(f *cmdutil.Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "init DIR",
		Short: "Scaffold a new team pack repository",
		Long: `Create a pack in DIR: pack.yaml, a README explaining how to propose a
lesson, a CODEOWNERS template, a CI workflow that runs "lessons test" and
"lessons doctor" on every pull request, and an empty lessons/ directory.
DIR becomes a git repository unless it is inside one. Nothing is
overwritten.`,
		Example: `  lessons pack init team-lessons --maintainer @acme/platform
  lessons pack init . --name acme-backend --description "What our agents got wrong in the backend"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = args[0]
			if opts.Meta.Name == "" {
				abs, err := filepath.Abs(opts.Dir)
				if err != nil {
					return err
				}
				opts.Meta.Name = kebab(filepath.Base(abs))
			}
			if opts.Meta.Description == "" {
				opts.Meta.Description = "Lessons the " + opts.Meta.Name + " team's coding agents should not forget."
			}
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Meta.Name, "name", "", "pack `name` (kebab-case; default: the directory's name)")
	cmd.Flags().StringVar(&opts.Meta.Description, "description", "", "one line on what the pack is for")
	cmd.Flags().StringArrayVar(&opts.Meta.Maintainers, "maintainer", nil, "a `reviewer` for CODEOWNERS and pack.yaml, e.g. @org/team (repeatable)")
	return cmd
}

func initRun(opts *InitOptions) error {
	created, err := pack.Init(opts.Dir, opts.Meta)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "created pack %s in %s:\n", opts.Meta.Name, opts.Dir)
	for _, name := range created {
		fmt.Fprintf(opts.IO.Out, "  %s\n", name)
	}
	fmt.Fprintln(opts.IO.Out, "add lessons as lessons/<slug>.yaml, commit, push, then subscribe with: lessons pack add <URL>")
	return nil
}

// AddOptions are pack add's flags and dependencies.
type AddOptions struct {
	IO  *iostreams.IOStreams
	Env func() (*env, error)

	Ref     lessons.PackRef
	Project bool
	Global  bool
}

// NewCmdAdd returns `lessons pack add`; runF replaces addRun in tests.
func NewCmdAdd(f *cmdutil.Factory, runF func(*AddOptions) error) *cobra.Command {
	opts := &AddOptions{IO: f.IOStreams, Env: func() (*env, error) { return newEnv(f) }}
	cmd := &cobra.Command{
		Use:   "add URL",
		Short: "Subscribe to a team pack",
		Long: `Record the pack under packs: in a config.yaml: the project's .lessons/config.yaml
when inside a project (commit it, and lessons.lock after "lessons sync", so
the whole team gets the pack), else the global store's. --project and
--global choose.

builtin:NAME subscribes to an opt-in pack shipped with the binary: lessons
that are right where they apply but too noisy to give every user (see
docs/builtins.md). It needs no git and no sync.

A pack's lessons never block a tool call unless --allow-block is given.
Credentials do not belong in the URL, as user information or a query
parameter (?private_token=…): such a URL is refused. Use LESSONS_GIT_TOKEN
(with LESSONS_GIT_TOKEN_HOSTS naming the host), GITHUB_TOKEN, ~/.netrc,
ssh-agent or LESSONS_SSH_KEY.`,
		Example: `  lessons pack add https://github.com/acme/lessons-pack
  lessons pack add builtin:go-testing --project
  lessons pack add git@github.com:acme/lessons-pack.git --name acme --ref v2 --project
  lessons pack add https://gitlab.com/acme/guards --allow-block --global`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref.URL = args[0]
			if name, ok := lessons.BuiltinPackName(opts.Ref.URL); ok || strings.HasPrefix(opts.Ref.URL, lessons.BuiltinPackScheme) {
				if !slices.Contains(scope.BuiltinPacks(), name) {
					return cmdutil.FlagErrorf("no pack %q ships with this binary; the built-in packs are: %s",
						opts.Ref.URL, strings.Join(scope.BuiltinPacks(), ", "))
				}
			} else if where := pack.CredentialIn(opts.Ref.URL); where != "" || pack.Redact(opts.Ref.URL) != opts.Ref.URL {
				host := "HOST"
				if u, err := url.Parse(pack.Redact(opts.Ref.URL)); err == nil && u.Hostname() != "" {
					host = u.Hostname()
				}
				return cmdutil.Hintf(fmt.Sprintf("give the token in the environment instead: export LESSONS_GIT_TOKEN=<token> LESSONS_GIT_TOKEN_HOSTS=%s "+
					"(or add \"machine %s login <user> password <token>\" to ~/.netrc), then lessons pack add %s", host, host, pack.Redact(opts.Ref.URL)),
					"the URL holds a credential (%s), which would be written to config.yaml and sent wherever the URL goes: give the URL without it",
					cmp.Or(where, "a secret"))
			}
			if opts.Ref.Name == "" {
				opts.Ref.Name = NameFromURL(opts.Ref.URL)
			}
			if err := pack.CheckName(opts.Ref.Name); err != nil {
				return cmdutil.FlagErrorf("%v: choose one with --name", err)
			}
			if runF != nil {
				return runF(opts)
			}
			return addRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Ref.Name, "name", "", "pack `name` (default: from the URL)")
	cmd.Flags().StringVar(&opts.Ref.Ref, "ref", "", "branch, tag or commit to follow (default: the remote's default branch)")
	cmd.Flags().BoolVar(&opts.Ref.AllowBlock, "allow-block", false, "let the pack's lessons block tool calls")
	cmd.Flags().BoolVar(&opts.Project, "project", false, "write the project's config")
	cmd.Flags().BoolVar(&opts.Global, "global", false, "write the global store's config")
	return cmd
}

func addRun(opts *AddOptions) error {
	e, err := opts.Env()
	if err != nil {
		return err
	}
	t, err := cmdutil.ChooseTarget(e.dirs, e.cwd, opts.Project, opts.Global)
	if err != nil {
		return err
	}
	cfg, err := e.loader.Config(t.Config)
	if err != nil {
		return cmdutil.WithHint(err, "fix "+t.Config+" first")
	}
	for _, p := range cfg.Packs {
		switch {
		case p == opts.Ref:
			fmt.Fprintf(opts.IO.Out, "%s already subscribes to pack %s\n", t.Config, p.Name)
			return nil
		case p.Name == opts.Ref.Name:
			return cmdutil.Hintf("lessons pack add "+opts.Ref.URL+" --name OTHER, or lessons pack rm "+p.Name,
				"%s already has a pack named %s (%s)", t.Config, p.Name, pack.Redact(p.URL))
		}
	}
	cfg.Packs = append(cfg.Packs, opts.Ref)
	if err := writeConfig(t, cfg, "subscribe to pack "+opts.Ref.Name+" ("+opts.Ref.URL+")"); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "subscribed to pack %s in %s\n", opts.Ref.Name, t.Config)
	if _, ok := lessons.BuiltinPackName(opts.Ref.URL); ok {
		return nil // shipped with the binary: nothing to fetch
	}
	fmt.Fprintln(opts.IO.Out, "run `lessons sync` to fetch it")
	return nil
}

var nonName = regexp.MustCompile(`[^a-z0-9]+`)

// NameFromURL is the default pack name: the repository's name in
// kebab-case, without ".git".
func NameFromURL(url string) string {
	url = strings.TrimSuffix(strings.TrimRight(url, "/"), ".git")
	if i := strings.LastIndexAny(url, "/:"); i >= 0 {
		url = url[i+1:]
	}
	return kebab(url)
}

func kebab(s string) string {
	return strings.Trim(nonName.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// RmOptions are pack rm's flags and dependencies.
type RmOptions struct {
	IO  *iostreams.IOStreams
	Env func() (*env, error)

	Name    string
	Project bool
	Global  bool
}

// NewCmdRm returns `lessons pack rm`; runF replaces rmRun in tests.
func NewCmdRm(f *cmdutil.Factory, runF func(*RmOptions) error) *cobra.Command {
	opts := &RmOptions{IO: f.IOStreams, Env: func() (*env, error) { return newEnv(f) }}
	cmd := &cobra.Command{
		Use:   "rm NAME",
		Short: "Unsubscribe from a team pack",
		Long: `Remove the pack from the config that subscribes to it (the project's, else
the global one; --project or --global choose) and from the lessons.lock
beside it, and drop its cached copy when no config subscribes to it anymore.`,
		Example: `  lessons pack rm acme`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return rmRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Project, "project", false, "only the project's config")
	cmd.Flags().BoolVar(&opts.Global, "global", false, "only the global store's config")
	return cmd
}

func rmRun(opts *RmOptions) error {
	e, err := opts.Env()
	if err != nil {
		return err
	}
	if opts.Project && opts.Global {
		return cmdutil.FlagErrorf("--project and --global cannot be used together")
	}
	configs, err := e.configs()
	if err != nil {
		return err
	}
	// The project's config first: it is the one that wins.
	for _, sc := range slices.Backward(configs) {
		global := sc.Path == e.dirs.GlobalConfig()
		if (opts.Project && global) || (opts.Global && !global) {
			continue
		}
		n := len(sc.Config.Packs)
		sc.Config.Packs = slices.DeleteFunc(sc.Config.Packs, func(p lessons.PackRef) bool { return p.Name == opts.Name })
		if len(sc.Config.Packs) == n {
			continue
		}
		if err := e.unsubscribe(sc, opts.Name); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.Out, "removed pack %s from %s\n", opts.Name, sc.Path)
		if configs, err = e.configs(); err != nil {
			return err
		}
		if subs, _ := pack.Subscriptions(configs...); !slices.ContainsFunc(subs, func(s pack.Subscription) bool { return s.Name == opts.Name }) {
			if err := pack.Forget(e.dirs, opts.Name); err != nil {
				return err
			}
		}
		_, err := e.rebuild()
		return err
	}
	return cmdutil.Hintf("lessons pack list", "no config here subscribes to a pack named %q", opts.Name)
}

// unsubscribe writes sc's config, already without the pack, drops the
// pack from the lock beside it, and commits both in the global store.
func (e *env) unsubscribe(sc pack.Scoped, name string) error {
	if err := repo.WriteConfig(sc.Path, sc.Config); err != nil {
		return err
	}
	changed := []string{sc.Path}
	lockPath := pack.LockPath(sc.Path)
	lock, err := pack.ReadLock(lockPath)
	if err != nil {
		return err
	}
	if lock.Entry(name) != nil {
		lock.Keep(func(n string) bool { return n != name })
		if err := pack.WriteLock(lockPath, lock); err != nil {
			return err
		}
		changed = append(changed, lockPath)
	}
	if sc.Path == e.dirs.GlobalConfig() {
		return e.commitGlobal("unsubscribe from pack "+name, changed...)
	}
	return nil
}
