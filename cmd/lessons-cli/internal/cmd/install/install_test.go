package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

func TestFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios}
	for _, tt := range []struct {
		args, err string
	}{
		{"--platform claude --project --dry-run", ""},
		{"--platform claude --plugin /tmp/p", ""},
		{"--platform cursor", `--platform must be one of antigravity, claude, codex, gemini, opencode, not "cursor"`},
		{"--platform codex --plugin /tmp/p", "--plugin writes a Claude Code plugin"},
		{"--platform claude --project --user", "--project and --user cannot be used together"},
		{"--project", `required flag(s) "platform" not set`},
	} {
		var got *Options
		err := clitest.Run(NewCmdInstall(f, func(o *Options) error { got = o; return nil }), tt.args)
		switch {
		case tt.err == "" && (err != nil || got == nil):
			t.Errorf("install %s: %v", tt.args, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("install %s: error %v, want %q", tt.args, err, tt.err)
		}
	}
	var got *Options
	if err := clitest.Run(NewCmdUninstall(f, func(o *Options) error { got = o; return nil }), "--platform gemini --project"); err != nil || !got.Uninstall || !got.Project {
		t.Errorf("uninstall parsed %+v, %v", got, err)
	}
}

func TestMissingFrontBinary(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "lessons-cli")
	_, err := frontBinary(func() (string, error) { return self, nil })
	var hint *cmdutil.HintError
	if err == nil || !strings.Contains(err.Error(), "not beside lessons-cli") || !errors.As(err, &hint) {
		t.Errorf("frontBinary = %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lessons"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if bin, err := frontBinary(func() (string, error) { return self, nil }); err != nil || bin != filepath.Join(dir, "lessons") {
		t.Errorf("frontBinary = %q, %v", bin, err)
	}
}

func TestInstallRunDryRun(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "lessons")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	ios, _, out, errOut := iostreams.Test()
	opts := &Options{
		IO: ios, Platform: "codex", DryRun: true,
		Getenv:     func(k string) string { return map[string]string{"HOME": home}[k] },
		WorkingDir: func() (string, error) { return dir, nil },
		Executable: func() (string, error) { return filepath.Join(dir, "lessons-cli"), nil },
	}
	if err := installRun(opts); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".codex", "hooks.json")
	if !strings.HasPrefix(out.String(), "--- /dev/null\n+++ "+path+"\n@@ -0,0 +1,") || !strings.Contains(out.String(), bin+" hook --platform codex") {
		t.Errorf("dry run printed:\n%s", out)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("--dry-run wrote the file")
	}
	opts.DryRun, opts.Uninstall = true, true
	out.Reset()
	if err := installRun(opts); err != nil || out.Len() != 0 || !strings.Contains(errOut.String(), "nothing to change") {
		t.Errorf("uninstall dry run: %v %q %q", err, out, errOut)
	}
}

// A second install of the same agent, at the user's and the project's
// level, would run every hook twice: install refuses it, and doctor's
// agent check warns where it finds both.
func TestSecondInstallRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lessons"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": filepath.Join(dir, "home")}
	ios, _, _, _ := iostreams.Test()
	opts := func(project bool) *Options {
		return &Options{
			IO: ios, Platform: "claude", Project: project,
			Getenv:     func(k string) string { return env[k] },
			WorkingDir: func() (string, error) { return filepath.Join(dir, "project"), nil },
			Executable: func() (string, error) { return filepath.Join(dir, "lessons-cli"), nil },
		}
	}
	if err := installRun(opts(false)); err != nil {
		t.Fatal(err)
	}
	err := installRun(opts(true))
	if err == nil || !strings.Contains(err.Error(), "every hook twice") {
		t.Fatalf("project install over a user install: %v", err)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Error("the refused install wrote the project's settings")
	}
}

// TestInstallNotes: what install says an agent needs before it runs the
// hooks is what the real-agent suite measured: Codex's trust of each hook
// and of a project, Gemini CLI's hooksConfig and folder trust; it writes
// Gemini's settings where $GEMINI_CLI_HOME says.
func TestInstallNotes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lessons"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": filepath.Join(dir, "home"), "GEMINI_CLI_HOME": filepath.Join(dir, "gemini-home")}
	for _, tt := range []struct {
		agent   string
		project bool
		file    string
		want    []string
	}{
		{"codex", true, filepath.Join(project, ".codex", "hooks.json"), []string{"trust them in /hooks", "codex exec skips untrusted hooks", "only when the project is trusted"}},
		{"gemini", false, filepath.Join(dir, "gemini-home", ".gemini", "settings.json"), []string{"hooksConfig.enabled", "trusted folder", "--skip-trust"}},
	} {
		ios, _, _, errOut := iostreams.Test()
		opts := &Options{
			IO: ios, Platform: tt.agent, Project: tt.project,
			Getenv:     func(k string) string { return env[k] },
			WorkingDir: func() (string, error) { return project, nil },
			Executable: func() (string, error) { return filepath.Join(dir, "lessons-cli"), nil },
		}
		if err := installRun(opts); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(tt.file); err != nil {
			t.Errorf("%s: %v", tt.agent, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(errOut.String(), w) {
				t.Errorf("%s install says %q, without %q", tt.agent, errOut, w)
			}
		}
	}
}
