// Package root assembles the lessons command tree and turns errors into
// messages and exit codes.
package root

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/add"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/build"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/candidates"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/demo"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/disable"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/doctor"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/edit"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/export"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/gendocs"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/hook"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/initcmd"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/install"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/list"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/packcmd"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/rm"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/scan"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/search"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/show"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/stats"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/testcmd"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
)

// NewCmdRoot returns the lessons command with every subcommand.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lessons",
		Short: "Make coding agents stop repeating their mistakes",
		Long: `lessons keeps what coding agents got wrong as small YAML files, and puts the
right lesson in front of the agent just before the tool call that would
repeat the mistake, or refuses that call.

Lessons come from four scopes, each replacing the one before for the same
slug or id: built-in < global ($LESSONS_HOME, a git repository) < team
packs < project (.lessons/ at the project root).`,
		Example: `  lessons demo                      # see a lesson injected for a sample tool call
  lessons add --summary "pytest -s hangs in agent shells when a test reads stdin" \
      --problem "With -s a test calling input() waits for a terminal that never answers" \
      --solution "Drop -s, or close stdin: pytest -s < /dev/null" \
      --command '\bpytest\b.*\s-s\b' --unless '< ?/dev/null' --match 'pytest -s tests/'
  lessons list --scope project
  lessons test`,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	cmd.SetIn(f.IOStreams.In)
	cmd.SetOut(f.IOStreams.Out)
	cmd.SetErr(f.IOStreams.ErrOut)
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &cmdutil.FlagError{Err: err}
	})
	cmd.AddCommand(
		add.NewCmdAdd(f, nil),
		build.NewCmdBuild(f, nil),
		demo.NewCmdDemo(f, nil),
		disable.NewCmdDisable(f, nil),
		disable.NewCmdEnable(f, nil),
		doctor.NewCmdDoctor(f, nil),
		edit.NewCmdEdit(f, nil),
		hook.NewCmdHook(f),
		initcmd.NewCmdInit(f, nil),
		list.NewCmdList(f, nil),
		rm.NewCmdRm(f, nil),
		search.NewCmdSearch(f, nil),
		show.NewCmdShow(f, nil),
		testcmd.NewCmdTest(f, nil),
		install.NewCmdInstall(f, nil), install.NewCmdUninstall(f, nil), export.NewCmdExport(f, nil),
	)
	cmd.AddCommand(packcmd.NewCmds(f)...)
	cmd.AddCommand(
		scan.NewCmdScan(f, nil), candidates.NewCmdCandidates(f, nil), candidates.NewCmdReview(f, nil),
		candidates.NewCmdPromote(f, nil), candidates.NewCmdReject(f, nil), stats.NewCmdStats(f, nil),
		replay.NewCmdReplay(f, nil),
	)
	cmd.AddCommand(gendocs.NewCmdGenDocs())
	return cmd
}

// version is what --version prints: cmdutil.BuildVersion's version and,
// when known, the commit.
func version() string {
	v, commit := cmdutil.BuildVersion()
	if commit == "" {
		return v
	}
	return v + " (commit " + commit + ")"
}

// Main runs the CLI on the process's arguments and streams and returns
// the exit code: 0, or 1 after printing "Error: …" (and a hint) on stderr.
func Main() int {
	f := &cmdutil.Factory{
		IOStreams:  iostreams.System(),
		Getenv:     os.Getenv,
		WorkingDir: os.Getwd,
		Loader:     repo.Loader{},
		Now:        time.Now,
	}
	cmd := NewCmdRoot(f)
	cmd.SetArgs(os.Args[1:])
	executed, err := cmd.ExecuteC()
	return exitCode(f.IOStreams, executed, err)
}

// exitCode prints err for people and says how to exit.
func exitCode(ios *iostreams.IOStreams, cmd *cobra.Command, err error) int {
	if err == nil {
		return 0
	}
	code := 1
	var exit *cmdutil.ExitError
	if errors.As(err, &exit) {
		code = exit.Code
		if exit.Err == nil {
			return code
		}
	}
	if errors.Is(err, cmdutil.ErrSilent) {
		return code
	}
	fmt.Fprintf(ios.ErrOut, "Error: %s\n", iostreams.Escape(err.Error())) // may quote a file name, a log or a server
	var hint *cmdutil.HintError
	var flagErr *cmdutil.FlagError
	switch {
	case errors.As(err, &hint):
		fmt.Fprintf(ios.ErrOut, "Try: %s\n", hint.Hint)
	case errors.As(err, &flagErr) && cmd != nil:
		fmt.Fprintf(ios.ErrOut, "Try: %s --help\n", cmd.CommandPath())
	}
	return code
}
