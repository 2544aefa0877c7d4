// Package install implements `lessons install` and `lessons uninstall`,
// which wire the hook into a coding agent's own settings.
package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/agents"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// Options are install's and uninstall's flags and dependencies.
type Options struct {
	IO         *iostreams.IOStreams
	Getenv     func(string) string
	WorkingDir func() (string, error)
	// Executable is the running lessons-cli; the lessons binary agents
	// run is beside it.
	Executable func() (string, error)

	Platform  string
	Project   bool
	User      bool
	DryRun    bool
	Plugin    string // install only: write a Claude Code plugin there
	Uninstall bool
}

// NewCmdInstall returns the install command; runF replaces installRun in
// tests.
func NewCmdInstall(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Getenv: f.Getenv, WorkingDir: f.WorkingDir, Executable: os.Executable}
	cmd := &cobra.Command{
		Use:   "install --platform AGENT",
		Short: "Wire the lessons hook into a coding agent",
		Long: `Add lessons' hook entries to the agent's own settings file, so the agent
runs the lessons binary (beside this one) at every event lessons answers:

  claude    ~/.claude/settings.json or .claude/settings.json:
            PreToolUse, SessionStart, SubagentStart, UserPromptSubmit,
            PostToolUse, PostToolUseFailure, and PreSkillShellCommand when
            the claude on PATH is 2.1.332 or newer (or says no version)
  codex     ~/.codex/hooks.json or .codex/hooks.json:
            PreToolUse, SessionStart, UserPromptSubmit, PostToolUse
  gemini    ~/.gemini/settings.json or .gemini/settings.json:
            BeforeTool, AfterTool, BeforeAgent, SessionStart (timeouts in ms)
  opencode  a plugin in ~/.config/opencode/plugins or .opencode/plugins
  antigravity  ~/.gemini/config/hooks.json and ~/.gemini/antigravity-cli/hooks.json,
            or .agents/hooks.json and .antigravitycli/hooks.json (a named hook
            "lessons"): PreToolUse, PreInvocation

Every other key and entry of the file keeps its exact bytes, and a second
install changes nothing. The first change to an existing file keeps a copy
of it beside it (settings.json.lessons-backup), which uninstall deletes
once it has restored the file. --plugin DIR writes a Claude Code plugin
instead: its hooks and the /lessons:add, /lessons:review and /lessons:scan
commands.`,
		Example: `  lessons install --platform claude
  lessons install --platform codex --project --dry-run
  lessons install --platform claude --plugin ~/src/lessons-plugin`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Plugin != "" && opts.Platform != "claude" {
				return cmdutil.FlagErrorf("--plugin writes a Claude Code plugin: use it with --platform claude")
			}
			return run(opts, runF)
		},
	}
	addFlags(cmd, opts)
	cmd.Flags().StringVar(&opts.Plugin, "plugin", "", "write a Claude Code plugin into `dir` instead of editing settings")
	_ = cmd.MarkFlagDirname("plugin")
	return cmd
}

// NewCmdUninstall returns the uninstall command; runF replaces its run in
// tests.
func NewCmdUninstall(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Getenv: f.Getenv, WorkingDir: f.WorkingDir, Executable: os.Executable, Uninstall: true}
	cmd := &cobra.Command{
		Use:   "uninstall --platform AGENT",
		Short: "Remove the lessons hook from a coding agent",
		Long: `Remove exactly what lessons install added to the agent's settings file:
every hook entry that runs "lessons hook", and the lists and the hooks
object that removing them left empty (unless the file had them before).
Everything else keeps its bytes. A settings file that lessons created is
deleted; the opencode plugin file is deleted.`,
		Example: `  lessons uninstall --platform claude
  lessons uninstall --platform gemini --project --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return run(opts, runF) },
	}
	addFlags(cmd, opts)
	return cmd
}

func addFlags(cmd *cobra.Command, opts *Options) {
	fl := cmd.Flags()
	fl.StringVar(&opts.Platform, "platform", "", "the `agent`: "+strings.Join(agents.Names(), ", "))
	fl.BoolVar(&opts.Project, "project", false, "the project's settings (at the git root) instead of the user's")
	fl.BoolVar(&opts.User, "user", false, "the user's settings (the default)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the change as a unified diff and change nothing")
	_ = cmd.MarkFlagRequired("platform")
	_ = cmd.RegisterFlagCompletionFunc("platform", cobra.FixedCompletions(agents.Names(), cobra.ShellCompDirectiveNoFileComp))
}

func run(opts *Options, runF func(*Options) error) error {
	if agents.Agents[opts.Platform] == nil {
		return cmdutil.FlagErrorf("--platform must be one of %s, not %q", strings.Join(agents.Names(), ", "), opts.Platform)
	}
	if opts.Project && opts.User {
		return cmdutil.FlagErrorf("--project and --user cannot be used together")
	}
	if runF != nil {
		return runF(opts)
	}
	return installRun(opts)
}

func installRun(opts *Options) error {
	a := agents.Agents[opts.Platform]
	release := ""
	if !opts.Uninstall && opts.Plugin == "" { // uninstall removes every event; a plugin carries them all
		release = a.Release(agents.EnvFrom(opts.Getenv))
		a = a.For(release)
	}
	bin, err := frontBinary(opts.Executable)
	if err != nil && !opts.Uninstall {
		return err
	}
	changes, err := opts.plan(a, bin)
	if err != nil {
		return err
	}
	if opts.DryRun {
		diffs := 0
		for _, c := range changes {
			if d := c.Diff(); c.Changed() && d != "" {
				fmt.Fprint(opts.IO.Out, d)
				diffs++
			}
		}
		if diffs == 0 {
			fmt.Fprintln(opts.IO.ErrOut, "nothing to change")
		}
		return nil
	}
	for _, c := range changes {
		if !c.Changed() {
			state := "lessons is already installed"
			if opts.Uninstall {
				state = "lessons is not installed"
			}
			fmt.Fprintf(opts.IO.Out, "%s in %s: nothing to change\n", state, c.Path)
			continue
		}
		backup, err := c.Apply()
		if err != nil {
			return err
		}
		fmt.Fprintln(opts.IO.Out, describe(a, opts, c, backup))
	}
	if !opts.Uninstall && opts.Plugin == "" {
		for _, note := range notes(a.Name, opts.Project, release) {
			fmt.Fprintln(opts.IO.ErrOut, "note: "+note)
		}
	}
	return nil
}

// notes tell the user what else an agent needs before it runs the hook,
// as the agents at the versions the real-agent suite pins behave, and
// what the agent's release (release: "" when unknown) lacks; lessons
// doctor checks each.
func notes(agent string, project bool, release string) []string {
	switch agent {
	case "claude":
		var out []string
		for _, ev := range agents.Agents[agent].Events {
			switch {
			case ev.Since == "":
			case release == "":
				out = append(out, fmt.Sprintf("claude did not say its version (is it on PATH?), so lessons registered %s too, which Claude Code %s added "+
					"(before a skill's or slash command's !`cmd` line runs); 2.1.331 and older skip it with a logged error and keep the other hooks.", ev.Name, ev.Since))
			case !ev.In(release):
				out = append(out, fmt.Sprintf("Claude Code %s has no %s (%s added it): a skill's or slash command's !`cmd` lines run without lessons' blocks. "+
					"After upgrading Claude Code, run lessons install --platform claude again.", release, ev.Name, ev.Since))
			}
		}
		return out
	case "codex":
		out := []string{"Codex runs these hooks only once you trust them: open codex and trust them in /hooks (codex exec skips untrusted hooks without a word)."}
		if project {
			out = append(out, "Codex reads a project's .codex/hooks.json only when the project is trusted: trust it when codex asks.")
		}
		return out
	case "gemini":
		return []string{"Gemini CLI runs hooks unless hooksConfig.enabled is false in its settings, and only in a trusted folder: trust it when gemini asks (headless runs need --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true)."}
	case "antigravity":
		return []string{"Antigravity CLI loads hooks.json at start: check with /hooks in agy that lessons is listed for PreToolUse and PreInvocation."}
	}
	return nil
}

// plan computes the changes the command makes.
func (opts *Options) plan(a *agents.Agent, bin string) ([]agents.Change, error) {
	if opts.Plugin != "" {
		version, _ := cmdutil.BuildVersion() // the one --version prints
		return agents.PlanPlugin(opts.Plugin, bin, version)
	}
	root := ""
	if opts.Project {
		cwd, err := opts.WorkingDir()
		if err != nil {
			return nil, err
		}
		root = agents.ProjectRoot(cwd)
	}
	env := agents.EnvFrom(opts.Getenv)
	if !opts.Uninstall {
		if other := otherInstall(opts, a, env, root); other != "" {
			flag := " --project"
			if root != "" {
				flag = ""
			}
			return nil, cmdutil.Hintf("lessons uninstall --platform "+a.Name+flag+" first, or keep that one",
				"lessons already runs for %s from %s: a second install would run every hook twice; nothing was written", a.Title, other)
		}
		if a.Name == "claude" {
			cwd, _ := opts.WorkingDir()
			if plugins := agents.ClaudePlugins(env, cwd); len(plugins) > 0 {
				return nil, cmdutil.Hintf("claude plugin disable "+plugins[0].Key+" first, or keep the plugin",
					"lessons already runs for Claude Code from the %s plugin (%s): a second install would run every hook twice; nothing was written", plugins[0].Key, plugins[0].Dir)
			}
		}
	}
	var changes []agents.Change
	for _, path := range a.Paths(env, root) {
		if opts.Uninstall {
			cs, err := a.PlanUninstall(path)
			if err != nil {
				return nil, err
			}
			changes = append(changes, cs...)
			continue
		}
		c, err := a.PlanInstall(path, bin)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// otherInstall is where lessons already runs for a at the other level
// (the user's settings for a project install, the current project's for
// a user install), or "".
func otherInstall(opts *Options, a *agents.Agent, env agents.Env, root string) string {
	other := ""
	if root != "" {
		other = a.Path(env, "")
	} else if cwd, err := opts.WorkingDir(); err == nil {
		if r := agents.ProjectRoot(cwd); r != "" {
			other = a.Path(env, r)
		}
	}
	if other == "" || other == a.Path(env, root) || !a.InstalledAt(other) {
		return ""
	}
	return other
}

// describe says what applying c did.
func describe(a *agents.Agent, opts *Options, c agents.Change, backup string) string {
	switch {
	case opts.Plugin != "":
		return "wrote " + c.Path
	case opts.Uninstall && c.Remove && strings.HasSuffix(c.Path, agents.BackupSuffix):
		return fmt.Sprintf("deleted %s, the copy install kept of the file as it was before", c.Path)
	case opts.Uninstall && c.Remove:
		return fmt.Sprintf("removed lessons from %s: deleted %s, which lessons had created", a.Title, c.Path)
	case opts.Uninstall:
		return fmt.Sprintf("removed lessons from %s in %s", a.Title, c.Path)
	}
	msg := fmt.Sprintf("installed lessons for %s in %s", a.Title, c.Path)
	if len(a.Events) > 0 {
		var names []string
		for _, ev := range a.Events {
			names = append(names, ev.Name)
		}
		msg += ": " + strings.Join(names, ", ")
	}
	if backup != "" {
		msg += " (the original is in " + backup + ")"
	}
	return msg
}

// frontBinary is the small lessons binary beside the running lessons-cli
// (symlinks resolved): agents run it, not lessons-cli, for its start-up
// time.
func frontBinary(executable func() (string, error)) (string, error) {
	self, err := executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	name, runnable := "lessons", fs.FileMode(0o111)
	if runtime.GOOS == "windows" {
		name, runnable = "lessons.exe", 0 // no execute bit there
	}
	bin := filepath.Join(filepath.Dir(self), name)
	fi, err := os.Stat(bin)
	if errors.Is(err, fs.ErrNotExist) || err == nil && (fi.IsDir() || runnable != 0 && fi.Mode()&runnable == 0) {
		return "", cmdutil.Hintf("go install github.com/lessons-dev/lessons/cmd/...@latest",
			"the lessons binary agents run is not beside lessons-cli (looked for %s)", bin)
	}
	return bin, err
}
