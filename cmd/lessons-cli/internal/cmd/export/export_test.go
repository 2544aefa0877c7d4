package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/agents"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

func setup(t *testing.T, ls ...scope.Resolved) (*Options, string) {
	t.Helper()
	root := t.TempDir()
	ios, _, _, _ := iostreams.Test()
	return &Options{
		IO:         ios,
		Merge:      func() (scope.Merged, error) { return scope.Merged{Project: root, Active: ls}, nil },
		WorkingDir: func() (string, error) { return root, nil },
	}, root
}

func TestFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *Options
	cmd := NewCmdExport(&cmdutil.Factory{IOStreams: ios}, func(o *Options) error { got = o; return nil })
	if err := clitest.Run(cmd, "--format skill --out /tmp/skills"); err != nil || got.Format != "skill" || got.Out != "/tmp/skills" {
		t.Errorf("parsed %+v, %v", got, err)
	}
	cmd = NewCmdExport(&cmdutil.Factory{IOStreams: ios}, func(o *Options) error { return nil })
	if err := clitest.Run(cmd, "--format html"); err == nil || !strings.Contains(err.Error(), "--format must be one of agents-md, claude-md, cursor, skill") {
		t.Errorf("--format html: %v", err)
	}
}

func TestExportAgentsMD(t *testing.T) {
	opts, root := setup(t, clitest.Resolved(lessons.ScopeGlobal, "pytest-tty", `\bpytest\b`))
	path := filepath.Join(root, "AGENTS.md")
	if err := os.WriteFile(path, []byte("# Project\n\nUse make.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Format = "agents-md"
	for range 2 {
		if err := exportRun(opts); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "# Project\n\nUse make.\n\n"+agents.SectionBegin) || strings.Count(string(data), agents.SectionEnd) != 1 {
		t.Errorf("AGENTS.md:\n%s", data)
	}
	if _, err := os.Stat(path + agents.BackupSuffix); !os.IsNotExist(err) {
		t.Error("export left a backup")
	}
}

func TestExportSkillsRemovesStale(t *testing.T) {
	git := clitest.Resolved(lessons.ScopeGlobal, "git-force", `git push --force`)
	git.Tags = []string{"tool:git"}
	opts, root := setup(t, git, clitest.Resolved(lessons.ScopeGlobal, "pytest-tty", `\bpytest\b`))
	opts.Format = "skill"
	if err := exportRun(opts); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".claude", "skills")
	for _, name := range []string{"lessons-git", "lessons-bash"} {
		if _, err := os.Stat(filepath.Join(dir, name, "SKILL.md")); err != nil {
			t.Error(err)
		}
	}
	mine := filepath.Join(dir, "lessons-mine", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("---\nname: lessons-mine\n---\nmy own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Merge = func() (scope.Merged, error) { return scope.Merged{Project: root, Active: []scope.Resolved{git}}, nil }
	if err := exportRun(opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "lessons-bash", "SKILL.md")); !os.IsNotExist(err) {
		t.Error("the stale skill is still there")
	}
	if _, err := os.Stat(mine); err != nil {
		t.Error("a skill export did not write was removed")
	}
}

func TestExportCursorKeepsForeignFile(t *testing.T) {
	opts, root := setup(t)
	opts.Format = "cursor"
	path := filepath.Join(root, ".cursor", "rules", "lessons.mdc")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("my rule\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exportRun(opts); err == nil || !strings.Contains(err.Error(), "was not written by lessons export") {
		t.Errorf("exportRun = %v", err)
	}
}
