package agents

import (
	"embed"
	"encoding/json"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

//go:embed claudeplugin/*.md
var pluginCommands embed.FS

// pluginManifest is a Claude Code plugin's .claude-plugin/plugin.json.
type pluginManifest struct {
	Name        string `json:"name"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description"`
	Homepage    string `json:"homepage"`
}

// pluginHooks is a Claude Code plugin's hooks/hooks.json.
type pluginHooks struct {
	Description string                 `json:"description"`
	Hooks       map[string][]hookGroup `json:"hooks"`
}

// PluginFiles are the files of a Claude Code plugin named "lessons",
// by path relative to the plugin's directory: its manifest, hooks
// running the lessons binary at bin for every event Claude Code's
// adapter answers, and the slash commands /lessons:add, /lessons:review
// and /lessons:scan, which run bin too.
func PluginFiles(bin, version string) map[string][]byte {
	return pluginFiles(Agents["claude"].Command(bin), shellQuote(bin), version)
}

// pluginFiles is PluginFiles with the hooks' command line and the
// commands' program given as written.
func pluginFiles(hookCmd, cli, version string) map[string][]byte {
	a := Agents["claude"]
	hooks := pluginHooks{
		Description: "lessons: lesson text before tool calls, refusals, the #lesson protocol at session start, and a request for a lesson when a failed call is fixed",
		Hooks:       map[string][]hookGroup{},
	}
	for _, ev := range a.Events {
		g := a.group(ev, "")
		g.Hooks[0].Command = hookCmd
		hooks.Hooks[ev.Name] = []hookGroup{g}
	}
	files := map[string][]byte{
		".claude-plugin/plugin.json": indentJSON(pluginManifest{
			Name: "lessons", Version: version,
			Description: "Makes Claude Code stop repeating mistakes: lessons learned in past sessions, put in front of the agent before the tool call that would repeat them.",
			Homepage:    "https://github.com/lessons-dev/lessons",
		}),
		"hooks/hooks.json": indentJSON(hooks),
	}
	entries, _ := pluginCommands.ReadDir("claudeplugin")
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		data, _ := pluginCommands.ReadFile(path.Join("claudeplugin", e.Name()))
		files["commands/"+e.Name()] = []byte(strings.ReplaceAll(string(data), "{{LESSONS}}", cli))
	}
	return files
}

// PlanPlugin computes the changes that write the Claude Code plugin into
// dir.
func PlanPlugin(dir, bin, version string) ([]Change, error) {
	files := PluginFiles(bin, version)
	var out []Change
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		old, existed, err := readFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, Change{Path: p, Old: old, New: files[name], Existed: existed, NoBackup: true})
	}
	return out, nil
}

func indentJSON(v any) []byte {
	data, _ := json.MarshalIndent(v, "", "  ")
	return append(data, '\n')
}
