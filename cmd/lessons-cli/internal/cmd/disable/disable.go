// Package disable implements `lessons disable` and `lessons enable`.
package disable

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Options are disable's and enable's flags and dependencies.
type Options struct {
	IO         *iostreams.IOStreams
	Dirs       scope.Dirs
	WorkingDir func() (string, error)
	Merge      func() (scope.Merged, error)
	Loader     scope.Loader

	Key     string
	Project bool
	Global  bool
}

// NewCmdDisable returns the disable command; runF replaces disableRun in
// tests.
func NewCmdDisable(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, WorkingDir: f.WorkingDir, Merge: f.Merge, Loader: f.Loader}
	cmd := &cobra.Command{
		Use:   "disable SLUG",
		Short: "Mute a lesson from any scope",
		Long: `Add the lesson's slug to disable: in a config.yaml. Inside a project with
.lessons/ that is the project's config (commit it to mute the lesson for the
team), else the global store's (one git commit); --project and --global
choose.`,
		Example: `  lessons disable pytest-hangs-waiting-on-a-tty-k3x9
  lessons disable pytest-hangs-waiting-on-a-tty-k3x9 --global`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cmdutil.CompleteSlugs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key, opts.Dirs = args[0], f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return disableRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Project, "project", false, "write the project's config")
	cmd.Flags().BoolVar(&opts.Global, "global", false, "write the global store's config")
	return cmd
}

// NewCmdEnable returns the enable command; runF replaces enableRun in
// tests.
func NewCmdEnable(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, WorkingDir: f.WorkingDir, Merge: f.Merge, Loader: f.Loader}
	cmd := &cobra.Command{
		Use:   "enable SLUG",
		Short: "Undo disable",
		Long: `Remove the lesson's slug and id from disable: in the configs that apply
here (the project's and the global one); --project or --global limits it to
one. A change to the global config is one git commit.`,
		Example:           `  lessons enable pytest-hangs-waiting-on-a-tty-k3x9`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cmdutil.CompleteSlugs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key, opts.Dirs = args[0], f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return enableRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Project, "project", false, "only the project's config")
	cmd.Flags().BoolVar(&opts.Global, "global", false, "only the global store's config")
	return cmd
}

func disableRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	r, reason, err := cmdutil.Find(m, opts.Key)
	if err != nil {
		return err
	}
	cwd, err := opts.WorkingDir()
	if err != nil {
		return err
	}
	t, err := cmdutil.ChooseTarget(opts.Dirs, cwd, opts.Project, opts.Global)
	if err != nil {
		return err
	}
	cfg, err := opts.Loader.Config(t.Config)
	if err != nil {
		return cmdutil.WithHint(err, "fix "+t.Config+" first")
	}
	if slices.Contains(cfg.Disable, r.Slug) || slices.Contains(cfg.Disable, r.ID) {
		fmt.Fprintf(opts.IO.Out, "%s is already disabled in %s\n", r.Slug, t.Config)
		return nil
	}
	cfg.Disable = append(cfg.Disable, r.Slug)
	if err := writeConfig(t, cfg, "disable "+r.Slug+": "+r.Summary); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "disabled %s in %s\n", r.Slug, t.Config)
	if reason != "" && reason != "disabled" {
		fmt.Fprintf(opts.IO.ErrOut, "note: it was not active anyway (%s)\n", reason)
	}
	return nil
}

func enableRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	r, _, err := cmdutil.Find(m, opts.Key)
	if err != nil {
		return err
	}
	var targets []cmdutil.Target
	if !opts.Project {
		targets = append(targets, cmdutil.GlobalTarget(opts.Dirs))
	}
	if !opts.Global && m.Project != "" {
		targets = append(targets, cmdutil.ProjectTarget(m.Project))
	}
	if opts.Project && m.Project == "" {
		return cmdutil.Hintf("lessons init --project", "not inside a project with a .lessons directory")
	}
	changed := false
	for _, t := range targets {
		cfg, err := opts.Loader.Config(t.Config)
		if err != nil {
			return cmdutil.WithHint(err, "fix "+t.Config+" first")
		}
		n := len(cfg.Disable)
		cfg.Disable = slices.DeleteFunc(cfg.Disable, func(s string) bool { return s == r.Slug || s == r.ID })
		if len(cfg.Disable) == n {
			continue
		}
		if err := writeConfig(t, cfg, "enable "+r.Slug+": "+r.Summary); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.Out, "enabled %s in %s\n", r.Slug, t.Config)
		changed = true
	}
	if !changed {
		var configs []string
		for _, t := range targets {
			configs = append(configs, t.Config)
		}
		fmt.Fprintf(opts.IO.Out, "%s is not disabled in %s\n", r.Slug, strings.Join(configs, " or "))
		if slices.Contains(m.Config.Disable, r.Slug) || slices.Contains(m.Config.Disable, r.ID) {
			fmt.Fprintln(opts.IO.ErrOut, "note: LESSONS_DISABLE or another config still disables it")
		}
	}
	return nil
}

// writeConfig writes a target's config and, in the global store, commits
// it as one change.
func writeConfig(t cmdutil.Target, cfg lessons.Config, message string) error {
	if t.Store != nil {
		if err := t.Store.EnsureInit(); err != nil {
			return err
		}
	}
	if err := repo.WriteConfig(t.Config, cfg); err != nil {
		return err
	}
	return t.Commit(message, t.Config)
}
