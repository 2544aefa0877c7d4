package agents

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// machineSettings are the settings files an administrator writes for
// every user of the machine, as the agents at the versions the
// real-agent suite pins read them on this OS; tests point them
// elsewhere.
var machineSettings = machineSettingsFor(runtime.GOOS)

type machinePaths struct {
	// claudeManaged is Claude Code's managed-settings.json; a
	// managed-settings.d directory beside it holds more.
	claudeManaged string
	// geminiSystem is Gemini CLI's system settings.json
	// ($GEMINI_CLI_SYSTEM_SETTINGS_PATH wins); system-defaults.json sits
	// beside it ($GEMINI_CLI_SYSTEM_DEFAULTS_PATH wins).
	geminiSystem string
	// codexSystem is Codex's system config.toml.
	codexSystem string
}

func machineSettingsFor(goos string) machinePaths {
	switch goos {
	case "darwin":
		return machinePaths{"/Library/Application Support/ClaudeCode/managed-settings.json",
			"/Library/Application Support/GeminiCli/settings.json", "/etc/codex/config.toml"}
	case "windows":
		return machinePaths{`C:\Program Files\ClaudeCode\managed-settings.json`,
			`C:\ProgramData\gemini-cli\settings.json`, "/etc/codex/config.toml"}
	}
	return machinePaths{"/etc/claude-code/managed-settings.json", "/etc/gemini-cli/settings.json", "/etc/codex/config.toml"}
}

// switchFile is one settings file that may set an agent's hooks switch,
// and what its value is (nil: unset).
type switchFile struct {
	path    string
	value   *bool
	machine bool // Claude Code's managed settings
}

// hooksOff finds the agent's own switch that turns every hook (for
// opencode, every plugin) off, for a user whose project is root ("":
// none): the file that decides, read with the agent's precedence, and
// how to turn the hooks back on.
func (a *Agent) hooksOff(env Env, root string) []Problem {
	switch a.Name {
	case "claude":
		return claudeHooksOff(env, root)
	case "gemini":
		return geminiHooksOff(env, root)
	case "codex":
		return codexHooksOff(env, root)
	case "opencode":
		return opencodePluginsOff(env, root)
	}
	return nil
}

// claudeHooksOff reads "disableAllHooks" as Claude Code 2.1.332 does: true
// in managed settings (managed-settings.json, then managed-settings.d/*.json)
// turns off every hook, and "allowManagedHooksOnly" there every hook but
// theirs; otherwise the last of the user's, the project's and the local
// settings that sets "disableAllHooks" decides for lessons' hooks.
func claudeHooksOff(env Env, root string) []Problem {
	read := func(path string, machine bool) switchFile {
		var s struct {
			DisableAllHooks *bool `json:"disableAllHooks"`
		}
		data, err := readSettings(path)
		if err == nil && json.Unmarshal(data, &s) == nil && s.DisableAllHooks != nil {
			return switchFile{path, s.DisableAllHooks, machine}
		}
		return switchFile{path: path, machine: machine}
	}
	managed := []string{machineSettings.claudeManaged}
	dropIns, _ := filepath.Glob(filepath.Join(filepath.Dir(machineSettings.claudeManaged), "managed-settings.d", "*.json"))
	slices.Sort(dropIns)
	for _, p := range append(managed, dropIns...) {
		if f := read(p, true); f.value != nil && *f.value {
			return []Problem{claudeOff(f)}
		}
		var s struct {
			AllowManagedHooksOnly bool `json:"allowManagedHooksOnly"`
		}
		if data, err := readSettings(p); err == nil && json.Unmarshal(data, &s) == nil && s.AllowManagedHooksOnly {
			return []Problem{{Severity: "error", File: p,
				Message: `Claude Code runs only the managed settings' hooks, not lessons': "allowManagedHooksOnly" is true in the managed settings`,
				Fix:     "managed settings are your administrator's: ask them to add lessons' hooks there, or to remove \"allowManagedHooksOnly\""}}
		}
	}
	files := []switchFile{read(Agents["claude"].Path(env, ""), false)}
	if root != "" {
		files = append(files, read(Agents["claude"].Path(env, root), false),
			read(filepath.Join(root, ".claude", "settings.local.json"), false))
	}
	if f, ok := decides(files); ok && *f.value {
		return []Problem{claudeOff(f)}
	}
	return nil
}

func claudeOff(f switchFile) Problem {
	p := Problem{Severity: "error", File: f.path,
		Message: `Claude Code runs no hook: "disableAllHooks" is true`,
		Fix:     `remove "disableAllHooks" from the file (or set it to false), then start a new session`}
	if f.machine {
		p.Message += " in the managed settings"
		p.Fix = `managed settings are your administrator's: ask them to remove "disableAllHooks"`
	}
	return p
}

// geminiHooksOff reads hooksConfig.enabled as Gemini CLI 0.61 merges its
// settings: system defaults, then the user's, the workspace's and the
// system settings, the last that sets it deciding.
func geminiHooksOff(env Env, root string) []Problem {
	system := envOr(env, "GEMINI_CLI_SYSTEM_SETTINGS_PATH", machineSettings.geminiSystem)
	defaults := envOr(env, "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", filepath.Join(filepath.Dir(system), "system-defaults.json"))
	paths := []string{defaults, Agents["gemini"].Path(env, "")}
	if root != "" {
		paths = append(paths, Agents["gemini"].Path(env, root))
	}
	var files []switchFile
	for _, p := range append(paths, system) {
		var s struct {
			HooksConfig struct {
				Enabled *bool `json:"enabled"`
			} `json:"hooksConfig"`
		}
		f := switchFile{path: p}
		if data, err := readSettings(p); err == nil && json.Unmarshal(data, &s) == nil {
			f.value = s.HooksConfig.Enabled
		}
		files = append(files, f)
	}
	if f, ok := decides(files); ok && !*f.value {
		return []Problem{{Severity: "error", File: f.path, Message: "Gemini CLI runs no hook: hooksConfig.enabled is false",
			Fix: `set "hooksConfig": {"enabled": true} in the file (or /settings → Hooks)`}}
	}
	return nil
}

// codexHooksOff reads Codex 0.169's hooks feature ([features] hooks, or
// its old name codex_hooks): the system config, then the user's, then a
// trusted project's, the last that sets it deciding.
func codexHooksOff(env Env, root string) []Problem {
	type config struct {
		Features map[string]any `toml:"features"`
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	parse := func(path string) (config, switchFile) {
		var c config
		f := switchFile{path: path}
		data, err := readSettings(path)
		if err != nil || toml.Unmarshal(data, &c) != nil {
			return c, f
		}
		for _, key := range []string{"codex_hooks", "hooks"} { // the current name wins
			if v, ok := c.Features[key].(bool); ok {
				f.value = &v
			}
		}
		return c, f
	}
	_, system := parse(machineSettings.codexSystem)
	user, userFile := parse(filepath.Join(codexHome(env), "config.toml"))
	files := []switchFile{system, userFile}
	if root != "" && user.Projects[root].TrustLevel == "trusted" {
		_, project := parse(filepath.Join(root, ".codex", "config.toml"))
		files = append(files, project)
	}
	if f, ok := decides(files); ok && !*f.value {
		return []Problem{{Severity: "error", File: f.path, Message: "Codex CLI runs no hook: the hooks feature is off ([features] hooks = false)",
			Fix: "set hooks = true under [features] in the file (codex features enable hooks does it for the user's)"}}
	}
	return nil
}

// opencodePluginsOff reads opencode 1.18's switches, which are
// environment variables: OPENCODE_PURE (what --pure sets) loads no plugin
// but its own; OPENCODE_DISABLE_PROJECT_CONFIG skips the project's
// .opencode directory, where a project install puts lessons' plugin.
func opencodePluginsOff(env Env, root string) []Problem {
	on := func(k string) bool {
		v := strings.ToLower(env.Getenv(k))
		return v == "1" || v == "true"
	}
	var out []Problem
	if on("OPENCODE_PURE") {
		out = append(out, Problem{Severity: "error", File: "$OPENCODE_PURE",
			Message: "opencode loads no external plugin, lessons' included: OPENCODE_PURE is set (as opencode --pure does)",
			Fix:     "unset OPENCODE_PURE and run opencode without --pure"})
	}
	if project := Agents["opencode"].Path(env, root); root != "" && on("OPENCODE_DISABLE_PROJECT_CONFIG") && fileExists(project) {
		out = append(out, Problem{Severity: "error", File: "$OPENCODE_DISABLE_PROJECT_CONFIG",
			Message: fmt.Sprintf("opencode skips the project's .opencode directory, so not %s: OPENCODE_DISABLE_PROJECT_CONFIG is set", project),
			Fix:     "unset OPENCODE_DISABLE_PROJECT_CONFIG, or install for the user: lessons install --platform opencode"})
	}
	return out
}

// decides is the last of files, in the agent's order of precedence, that
// sets the switch.
func decides(files []switchFile) (switchFile, bool) {
	for i := len(files) - 1; i >= 0; i-- {
		if files[i].value != nil {
			return files[i], true
		}
	}
	return switchFile{}, false
}

// maxSettings caps what is read of one settings file; the agents read
// none larger (Claude Code refuses one over 2 MB).
const maxSettings = 4 << 20

// readSettings reads a regular settings file, at most maxSettings of it.
func readSettings(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, maxSettings))
}

// envOr is the variable key of env, or fallback when it is empty.
func envOr(env Env, key, fallback string) string {
	if v := env.Getenv(key); v != "" {
		return v
	}
	return fallback
}

// fileExists reports whether path is a regular file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
