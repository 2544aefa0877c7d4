package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withMachineSettings points the administrator's settings files into dir
// for the test.
func withMachineSettings(t *testing.T, dir string) {
	t.Helper()
	old := machineSettings
	machineSettings = machinePaths{
		claudeManaged: filepath.Join(dir, "claude-code", "managed-settings.json"),
		geminiSystem:  filepath.Join(dir, "gemini-cli", "settings.json"),
		codexSystem:   filepath.Join(dir, "codex", "config.toml"),
	}
	t.Cleanup(func() { machineSettings = old })
}

// TestHooksOff reads each agent's switch that turns every hook off with
// the agent's precedence: the file that decides is named, a later file
// that turns the hooks back on wins, and an administrator's file wins
// where the agent says so.
func TestHooksOff(t *testing.T) {
	type file struct{ path, data string } // path: "~/" home, "P/" project, "M/" machine
	cases := []struct {
		name, agent string
		files       []file
		env         map[string]string
		want        string // the file of the one problem, "" for none; "$X" for a variable
		says        string
	}{
		{"claude: nothing set", "claude", []file{{"~/.claude/settings.json", `{"model": "x"}`}}, nil, "", ""},
		{"claude: user", "claude", []file{{"~/.claude/settings.json", `{"disableAllHooks": true}`}}, nil,
			"~/.claude/settings.json", `"disableAllHooks" is true`},
		{"claude: the project turns them back on", "claude", []file{
			{"~/.claude/settings.json", `{"disableAllHooks": true}`}, {"P/.claude/settings.json", `{"disableAllHooks": false}`}}, nil, "", ""},
		{"claude: local", "claude", []file{
			{"P/.claude/settings.json", `{"disableAllHooks": false}`}, {"P/.claude/settings.local.json", `{"disableAllHooks": true}`}}, nil,
			"P/.claude/settings.local.json", `"disableAllHooks" is true`},
		{"claude: CLAUDE_CONFIG_DIR", "claude", []file{{"~/cfg/settings.json", `{"disableAllHooks": true}`}},
			map[string]string{"CLAUDE_CONFIG_DIR": "~/cfg"}, "~/cfg/settings.json", `"disableAllHooks" is true`},
		{"claude: managed wins", "claude", []file{
			{"M/claude-code/managed-settings.json", `{"disableAllHooks": true}`}, {"P/.claude/settings.local.json", `{"disableAllHooks": false}`}}, nil,
			"M/claude-code/managed-settings.json", "in the managed settings"},
		{"claude: managed hooks only", "claude", []file{{"M/claude-code/managed-settings.json", `{"allowManagedHooksOnly": true}`}}, nil,
			"M/claude-code/managed-settings.json", `"allowManagedHooksOnly" is true`},
		{"claude: managed drop-in", "claude", []file{{"M/claude-code/managed-settings.d/50-lockdown.json", `{"disableAllHooks": true}`}}, nil,
			"M/claude-code/managed-settings.d/50-lockdown.json", "in the managed settings"},

		{"gemini: user", "gemini", []file{{"~/.gemini/settings.json", `{"hooksConfig": {"enabled": false}}`}}, nil,
			"~/.gemini/settings.json", "hooksConfig.enabled is false"},
		{"gemini: the workspace turns them back on", "gemini", []file{
			{"~/.gemini/settings.json", `{"hooksConfig": {"enabled": false}}`}, {"P/.gemini/settings.json", `{"hooksConfig": {"enabled": true}}`}}, nil, "", ""},
		{"gemini: system wins", "gemini", []file{
			{"M/gemini-cli/settings.json", `{"hooksConfig": {"enabled": false}}`}, {"P/.gemini/settings.json", `{"hooksConfig": {"enabled": true}}`}}, nil,
			"M/gemini-cli/settings.json", "hooksConfig.enabled is false"},
		{"gemini: system defaults", "gemini", []file{{"M/gemini-cli/system-defaults.json", `{"hooksConfig": {"enabled": false}}`}}, nil,
			"M/gemini-cli/system-defaults.json", "hooksConfig.enabled is false"},
		{"gemini: GEMINI_CLI_SYSTEM_SETTINGS_PATH", "gemini", []file{{"M/elsewhere.json", `{"hooksConfig": {"enabled": false}}`}},
			map[string]string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "M/elsewhere.json"}, "M/elsewhere.json", "hooksConfig.enabled is false"},

		{"codex: user", "codex", []file{{"~/.codex/config.toml", "[features]\nhooks = false\n"}}, nil,
			"~/.codex/config.toml", "hooks = false"},
		{"codex: the old name", "codex", []file{{"~/.codex/config.toml", "[features]\ncodex_hooks = false\n"}}, nil,
			"~/.codex/config.toml", "hooks = false"},
		{"codex: a trusted project turns them back on", "codex", []file{
			{"~/.codex/config.toml", "[features]\nhooks = false\n[projects.\"P\"]\ntrust_level = \"trusted\"\n"},
			{"P/.codex/config.toml", "[features]\nhooks = true\n"}}, nil, "", ""},
		{"codex: an untrusted project is not read", "codex", []file{
			{"~/.codex/config.toml", "[features]\nhooks = false\n"}, {"P/.codex/config.toml", "[features]\nhooks = true\n"}}, nil,
			"~/.codex/config.toml", "hooks = false"},
		{"codex: system", "codex", []file{{"M/codex/config.toml", "[features]\nhooks = false\n"}}, nil,
			"M/codex/config.toml", "hooks = false"},

		{"opencode: --pure", "opencode", nil, map[string]string{"OPENCODE_PURE": "1"}, "$OPENCODE_PURE", "loads no external plugin"},
		{"opencode: no project config, a project install", "opencode", []file{{"P/.opencode/plugins/lessons.js", "//"}},
			map[string]string{"OPENCODE_DISABLE_PROJECT_CONFIG": "true"}, "$OPENCODE_DISABLE_PROJECT_CONFIG", "skips the project's .opencode"},
		{"opencode: no project config, a user install", "opencode", nil,
			map[string]string{"OPENCODE_DISABLE_PROJECT_CONFIG": "true"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			home, project, machine := filepath.Join(dir, "home"), filepath.Join(dir, "project"), filepath.Join(dir, "machine")
			withMachineSettings(t, machine)
			expand := func(p string) string {
				p = strings.ReplaceAll(p, `"P"`, `"`+project+`"`)
				for prefix, d := range map[string]string{"~/": home, "P/": project, "M/": machine} {
					if rest, ok := strings.CutPrefix(p, prefix); ok {
						return filepath.Join(d, filepath.FromSlash(rest))
					}
				}
				return p
			}
			for _, f := range c.files {
				path := expand(f.path)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(expand(f.data)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := Env{Home: home, Getenv: func(k string) string { return expand(c.env[k]) }}
			ps := Agents[c.agent].hooksOff(env, project)
			if c.want == "" {
				if len(ps) > 0 {
					t.Errorf("problems: %+v", ps)
				}
				return
			}
			if len(ps) != 1 || ps[0].File != expand(c.want) || !strings.Contains(ps[0].Message, c.says) || ps[0].Fix == "" || ps[0].Severity != "error" {
				t.Errorf("problems: %+v; want one error at %s saying %q, with a fix", ps, expand(c.want), c.says)
			}
		})
	}
}
