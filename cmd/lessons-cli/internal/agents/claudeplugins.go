package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// claudeConfigDir is Claude Code's configuration directory.
func claudeConfigDir(env Env) string {
	if d := env.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(env.Home, ".claude")
}

// checkClaudePlugins finds the lessons plugins Claude Code has installed
// and enabled (plugins/installed_plugins.json and the enabledPlugins of
// the user's and the project's settings, as Claude Code 2.1.331 keeps
// them) and checks each like a settings file: every event has its hook,
// and the program it runs answers. A plugin enabled beside lessons in
// settings (settings, the files where it is) runs every hook twice. It
// returns the plugins' directories and the problems.
func checkClaudePlugins(env Env, cwd string, settings []string) (dirs []string, out []Problem) {
	a := Agents["claude"]
	var installed struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	data, err := os.ReadFile(filepath.Join(claudeConfigDir(env), "plugins", "installed_plugins.json"))
	if err != nil || json.Unmarshal(data, &installed) != nil {
		return nil, nil
	}
	enabled := map[string]bool{}
	settingsFiles := []string{a.Path(env, "")}
	if root := ProjectRoot(cwd); root != "" {
		settingsFiles = append(settingsFiles, a.Path(env, root), filepath.Join(root, ".claude", "settings.local.json"))
	}
	for _, f := range settingsFiles {
		var s struct {
			EnabledPlugins map[string]bool `json:"enabledPlugins"`
		}
		if data, err := os.ReadFile(f); err == nil && json.Unmarshal(data, &s) == nil {
			for k, v := range s.EnabledPlugins {
				enabled[k] = enabled[k] || v
			}
		}
	}
	keys := make([]string, 0, len(installed.Plugins))
	for k := range installed.Plugins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		if !enabled[key] {
			continue
		}
		for _, inst := range installed.Plugins[key] {
			hooksPath := filepath.Join(inst.InstallPath, "hooks", "hooks.json")
			data, err := os.ReadFile(hooksPath)
			if err != nil {
				continue
			}
			var hooks pluginHooks
			if json.Unmarshal(data, &hooks) != nil {
				continue
			}
			events, command := pluginEvents(hooks, inst.InstallPath)
			if command == "" {
				continue // not lessons'
			}
			dirs = append(dirs, inst.InstallPath)
			fix := "claude plugin update " + key
			var missing []string
			for _, ev := range a.Events {
				if !slices.Contains(events, ev.Name) {
					missing = append(missing, ev.Name)
				}
			}
			if len(missing) > 0 {
				out = append(out, Problem{Severity: "warning", File: hooksPath,
					Message: fmt.Sprintf("the %s plugin runs lessons for %s but not for %s", key, strings.Join(events, ", "), strings.Join(missing, ", ")), Fix: fix})
			}
			if p := a.probePlugin(env, command, cwd); p != "" {
				out = append(out, Problem{Severity: "error", File: hooksPath, Message: fmt.Sprintf("the %s plugin's hook: %s", key, p), Fix: fix})
			}
			if len(settings) > 0 {
				out = append(out, Problem{Severity: "warning", File: hooksPath,
					Message: fmt.Sprintf("Claude Code runs lessons from the %s plugin and from %s: every hook runs twice and injects twice", key, strings.Join(settings, ", ")),
					Fix:     "lessons uninstall --platform claude (and --project for a project's), or claude plugin disable " + key})
			}
		}
	}
	return dirs, out
}

// pluginEvents lists the events whose hooks run lessons in a plugin's
// hooks.json, and the program one of them runs: the lessons binary, or
// the marketplace plugin's wrapper, which runs lessons from PATH.
func pluginEvents(hooks pluginHooks, root string) (events []string, program string) {
	for ev, groups := range hooks.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				cmd := strings.ReplaceAll(h.Command, "${CLAUDE_PLUGIN_ROOT}", root)
				bin, isHook := commandBinary(cmd)
				if isHook && (isOurs(cmd) || filepath.Base(bin) == "lessons-hook") {
					events = append(events, ev)
					program = bin
				}
			}
		}
	}
	slices.Sort(events)
	return slices.Compact(events), program
}

// probePlugin checks the program a plugin's hook runs. The marketplace
// plugin's wrapper runs lessons from PATH and answers {} without it, so
// the lessons on PATH is the one probed.
func (a *Agent) probePlugin(env Env, program, cwd string) string {
	if filepath.Base(program) == "lessons-hook" {
		for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
			if p := filepath.Join(dir, "lessons"); dir != "" && isExecutable(p) {
				return a.probe(a.Command(p), cwd)
			}
		}
		return "the plugin runs lessons from PATH, and there is none: it answers {} to every event"
	}
	return a.probe(a.Command(program), cwd)
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
