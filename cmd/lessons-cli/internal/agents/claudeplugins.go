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

// checkClaudePlugins checks each lessons plugin Claude Code has installed
// and enabled (ClaudePlugins) like a settings file: every event has its hook,
// and the program it runs answers. A plugin enabled beside lessons in
// settings (settings, the files where it is) runs every hook twice; an
// event only newer releases have is wanted where release has it. It
// returns the plugins' directories and the problems.
func checkClaudePlugins(env Env, cwd string, settings []string, release func() string) (dirs []string, out []Problem) {
	a := Agents["claude"]
	for _, p := range ClaudePlugins(env, cwd) {
		hooksPath := filepath.Join(p.Dir, "hooks", "hooks.json")
		dirs = append(dirs, p.Dir)
		fix := "claude plugin update " + p.Key
		var missing []string
		for _, ev := range a.Events {
			if !slices.Contains(p.events, ev.Name) && ev.required(release) {
				missing = append(missing, ev.Name)
			}
		}
		if len(missing) > 0 {
			out = append(out, Problem{Severity: "warning", File: hooksPath,
				Message: fmt.Sprintf("the %s plugin runs lessons for %s but not for %s", p.Key, strings.Join(p.events, ", "), strings.Join(missing, ", ")), Fix: fix})
		}
		if msg := a.probePlugin(env, p.program, cwd); msg != "" {
			out = append(out, Problem{Severity: "error", File: hooksPath, Message: fmt.Sprintf("the %s plugin's hook: %s", p.Key, msg), Fix: fix})
		}
		if len(settings) > 0 {
			out = append(out, Problem{Severity: "warning", File: hooksPath,
				Message: fmt.Sprintf("Claude Code runs lessons from the %s plugin and from %s: every hook runs twice and injects twice", p.Key, strings.Join(settings, ", ")),
				Fix:     "lessons uninstall --platform claude (and --project for a project's), or claude plugin disable " + p.Key})
		}
	}
	return dirs, out
}

// ClaudePlugin is a Claude Code plugin that runs lessons' hook, installed
// and enabled.
type ClaudePlugin struct {
	Key     string // name@marketplace
	Dir     string // where Claude Code installed it
	events  []string
	program string
}

// ClaudePlugins finds the plugins running lessons' hook that Claude Code
// has installed (plugins/installed_plugins.json) and enabled (enabledPlugins
// in the user's or the project's settings), as Claude Code 2.1.331 keeps
// them.
func ClaudePlugins(env Env, cwd string) []ClaudePlugin {
	var installed struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	data, err := os.ReadFile(filepath.Join(claudeConfigDir(env), "plugins", "installed_plugins.json"))
	if err != nil || json.Unmarshal(data, &installed) != nil {
		return nil
	}
	enabled := map[string]bool{}
	settingsFiles := []string{Agents["claude"].Path(env, "")}
	if root := ProjectRoot(cwd); root != "" {
		settingsFiles = append(settingsFiles, Agents["claude"].Path(env, root), filepath.Join(root, ".claude", "settings.local.json"))
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
	var out []ClaudePlugin
	for _, key := range keys {
		if !enabled[key] {
			continue
		}
		for _, inst := range installed.Plugins[key] {
			data, err := os.ReadFile(filepath.Join(inst.InstallPath, "hooks", "hooks.json"))
			if err != nil {
				continue
			}
			var hooks pluginHooks
			if json.Unmarshal(data, &hooks) != nil {
				continue
			}
			if events, program := pluginEvents(hooks, inst.InstallPath); program != "" {
				out = append(out, ClaudePlugin{Key: key, Dir: inst.InstallPath, events: events, program: program})
			}
		}
	}
	return out
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
