// Package packcmd implements the team pack commands: `lessons pack`
// (init, add, list, rm), `lessons sync`, `lessons update` and
// `lessons submit`. The work is done by repo/pack; this package reads the
// configs, prints, and rebuilds the manifest after a pack changes.
package packcmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/repo/pack"
	"github.com/lessons-dev/lessons/scope"
)

// NewCmds returns every pack command, for the root command.
func NewCmds(f *cmdutil.Factory) []*cobra.Command {
	return []*cobra.Command{
		NewCmdPack(f),
		NewCmdSync(f, nil),
		NewCmdUpdate(f, nil),
		NewCmdSubmit(f, nil),
	}
}

// env is what every pack command needs from the factory.
type env struct {
	dirs   scope.Dirs
	cwd    string
	loader scope.Loader
	syncer *pack.Syncer
}

func newEnv(f *cmdutil.Factory) (*env, error) {
	cwd, err := f.WorkingDir()
	if err != nil {
		return nil, err
	}
	home := f.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	d := f.Dirs()
	// A config that does not load is reported by the command that reads
	// it; the timeout then keeps its default.
	cfg, _ := scope.Config(d, cwd, f.Loader)
	return &env{
		dirs: d, cwd: cwd, loader: f.Loader,
		syncer: &pack.Syncer{Dirs: d, Creds: pack.Credentials{Getenv: f.Getenv, Home: home}, Now: f.Now,
			Timeout: time.Duration(cfg.NetworkTimeoutSeconds) * time.Second},
	}, nil
}

// configs reads the configs that apply here, global first, then the
// project's when cwd is inside one.
func (e *env) configs() ([]pack.Scoped, error) {
	paths := []string{e.dirs.GlobalConfig()}
	if root := scope.FindProject(e.cwd); root != "" {
		paths = append(paths, scope.ProjectConfig(root))
	}
	var out []pack.Scoped
	for _, p := range paths {
		cfg, err := e.loader.Config(p)
		if err != nil {
			return nil, cmdutil.WithHint(err, "fix "+p+" first")
		}
		out = append(out, pack.Scoped{Path: p, Config: cfg})
	}
	return out, nil
}

// scopeOf names the scope of a config file for people.
func (e *env) scopeOf(configPath string) string {
	if configPath == e.dirs.GlobalConfig() {
		return "global"
	}
	return "project"
}

// rebuild writes the manifest for the working directory, so the hook
// sees a changed pack at once (it would otherwise notice on its next
// call and rebuild itself), and returns the merge it was built from.
func (e *env) rebuild() (scope.Merged, error) {
	b, err := cmdutil.Build(e.dirs, e.cwd, e.loader)
	if err != nil {
		return scope.Merge(e.dirs, e.cwd, e.loader), fmt.Errorf("rebuilding the manifest: %w", err)
	}
	return b.Merged, nil
}

// commitGlobal records changed files of the global store as one commit,
// when the store is a git repository.
func (e *env) commitGlobal(message string, paths ...string) error {
	if _, err := os.Stat(filepath.Join(e.dirs.Home, ".git")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return cmdutil.GlobalTarget(e.dirs).Commit(message, paths...)
}

// ctx is the command's context.
func ctx(cmd *cobra.Command) context.Context {
	if c := cmd.Context(); c != nil {
		return c
	}
	return context.Background()
}

// writeConfig writes a target's config and commits it in the global store.
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
