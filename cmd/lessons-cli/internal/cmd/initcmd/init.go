// Package initcmd implements `lessons init`.
package initcmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Options are init's flags and dependencies.
type Options struct {
	IO         *iostreams.IOStreams
	Dirs       scope.Dirs
	WorkingDir func() (string, error)

	Project bool
}

// NewCmdInit returns the init command; runF replaces initRun in tests.
func NewCmdInit(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, WorkingDir: f.WorkingDir}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the global store, or a project's .lessons",
		Long: `Create the global store ($LESSONS_HOME, default $XDG_DATA_HOME/lessons): a git
repository with lessons/ and a commented config.yaml. Other commands create
it on first need too.

With --project, create .lessons/ with a commented config.yaml at the root
of the git repository around the current directory (or here, outside
one). Its lessons apply only inside the project; commit them with it.`,
		Example: `  lessons init
  lessons init --project`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dirs = f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Project, "project", false, "create .lessons/ at the project root")
	return cmd
}

func initRun(opts *Options) error {
	if !opts.Project {
		store := repo.Store{Dir: opts.Dirs.Home}
		created, err := store.Init()
		if err != nil {
			return err
		}
		if created {
			fmt.Fprintf(opts.IO.Out, "created the global store in %s\n", store.Dir)
		} else {
			fmt.Fprintf(opts.IO.Out, "the global store in %s is ready\n", store.Dir)
		}
		return nil
	}
	cwd, err := opts.WorkingDir()
	if err != nil {
		return err
	}
	root := gitRoot(cwd)
	dir := filepath.Join(root, scope.ProjectDirName)
	config := scope.ProjectConfig(root)
	if _, err := os.Stat(config); err == nil {
		fmt.Fprintf(opts.IO.Out, "%s is ready\n", dir)
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := scope.WriteFileAtomic(config, repo.DefaultConfigFile(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "created %s\n", dir)
	fmt.Fprintf(opts.IO.ErrOut, "Add lessons with lessons add (or copy one: lessons show SLUG > %s/SLUG.yaml), then commit %s with the project.\n", scope.ProjectDirName, scope.ProjectDirName)
	return nil
}

// gitRoot is the nearest ancestor of dir (dir included) holding .git, or
// dir when there is none.
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
