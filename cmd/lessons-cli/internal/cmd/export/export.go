// Package export implements `lessons export`, which renders the active
// lessons for tools that read instruction files instead of running hooks.
package export

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/agents"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

// Formats are what export renders, with the path each writes by default,
// relative to the project root.
var Formats = map[string]string{
	"agents-md": "AGENTS.md",
	"claude-md": "CLAUDE.md",
	"cursor":    filepath.Join(".cursor", "rules", "lessons.mdc"),
	"skill":     filepath.Join(".claude", "skills"),
}

var formatNames = []string{"agents-md", "claude-md", "cursor", "skill"}

// Options are export's flags and dependencies.
type Options struct {
	IO         *iostreams.IOStreams
	Merge      func() (scope.Merged, error)
	WorkingDir func() (string, error)

	Format string
	Out    string
}

// NewCmdExport returns the export command; runF replaces exportRun in
// tests.
func NewCmdExport(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge, WorkingDir: f.WorkingDir}
	cmd := &cobra.Command{
		Use:   "export --format FORMAT [--out PATH]",
		Short: "Write the active lessons for tools that read instruction files",
		Long: `Render the lessons that apply here for agents and editors that read
instruction files instead of running hooks:

  agents-md  a section of AGENTS.md between lessons' marker comments,
             replaced in place; the rest of the file is untouched
  claude-md  the same section in CLAUDE.md
  cursor     a Cursor rule, .cursor/rules/lessons.mdc, applied always
  skill      one skill per tool (tag tool:X), .claude/skills/lessons-X/SKILL.md,
             whose front matter names the tool's command patterns

Paths are relative to the project root; --out writes elsewhere (a
directory for skill). Export again after lessons change.`,
		Example: `  lessons export --format agents-md
  lessons export --format cursor
  lessons export --format skill --out ~/.claude/skills`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, ok := Formats[opts.Format]; !ok {
				return cmdutil.FlagErrorf("--format must be one of %s, not %q", strings.Join(formatNames, ", "), opts.Format)
			}
			if runF != nil {
				return runF(opts)
			}
			return exportRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "", "what to write: "+strings.Join(formatNames, ", "))
	cmd.Flags().StringVar(&opts.Out, "out", "", "write to `path` instead of the format's place in the project")
	_ = cmd.MarkFlagRequired("format")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formatNames, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func exportRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	cmdutil.PrintWarnings(opts.IO, m.Warnings)
	out := opts.Out
	if out == "" {
		cwd, err := opts.WorkingDir()
		if err != nil {
			return err
		}
		root := m.Project
		if root == "" {
			root = agents.ProjectRoot(cwd)
		}
		out = filepath.Join(root, Formats[opts.Format])
	}
	changes, err := plan(opts.Format, out, m.Active)
	if err != nil {
		return err
	}
	for _, c := range changes {
		if !c.Changed() {
			fmt.Fprintf(opts.IO.Out, "%s is up to date\n", c.Path)
			continue
		}
		if _, err := c.Apply(); err != nil {
			return err
		}
		verb := "wrote"
		if c.Remove {
			verb = "removed"
		}
		fmt.Fprintf(opts.IO.Out, "%s %s\n", verb, c.Path)
	}
	fmt.Fprintf(opts.IO.ErrOut, "%d lessons exported\n", len(m.Active))
	return nil
}

// plan computes the files an export writes and removes.
func plan(format, out string, ls []scope.Resolved) ([]agents.Change, error) {
	switch format {
	case "agents-md", "claude-md":
		old, existed, err := read(out)
		if err != nil {
			return nil, err
		}
		return []agents.Change{{Path: out, Old: old, Existed: existed, NoBackup: true,
			New: agents.MergeSection(old, agents.Section(ls))}}, nil
	case "cursor":
		c, err := whole(out, agents.CursorRule(ls))
		return []agents.Change{c}, err
	}
	return planSkills(out, agents.Skills(ls))
}

// planSkills writes one SKILL.md per tool under dir and removes the ones
// an earlier export wrote for tools that have no lessons any more.
func planSkills(dir string, skills []agents.Skill) ([]agents.Change, error) {
	var out []agents.Change
	wrote := map[string]bool{}
	for _, s := range skills {
		p := filepath.Join(dir, s.Name, "SKILL.md")
		c, err := whole(p, s.Text)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		wrote[p] = true
	}
	stale, _ := filepath.Glob(filepath.Join(dir, "lessons-*", "SKILL.md"))
	for _, p := range stale {
		if data, err := os.ReadFile(p); err == nil && !wrote[p] && agents.IsGenerated(data) {
			out = append(out, agents.Change{Path: p, Old: data, Existed: true, Remove: true})
		}
	}
	return out, nil
}

// whole plans writing a file export owns entirely; it will not replace
// a file it did not write.
func whole(path string, data []byte) (agents.Change, error) {
	old, existed, err := read(path)
	if err != nil {
		return agents.Change{}, err
	}
	if existed && !agents.IsGenerated(old) {
		return agents.Change{}, cmdutil.Hintf("lessons export --out OTHER_PATH, or move the file away",
			"%s exists and was not written by lessons export", path)
	}
	return agents.Change{Path: path, Old: old, New: data, Existed: existed, NoBackup: true}, nil
}

func read(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	return data, err == nil, err
}
