package agents

import (
	_ "embed"
)

// MarketplaceDir is where the repository keeps the plugin that its
// Claude Code marketplace (.claude-plugin/marketplace.json) lists.
const MarketplaceDir = ".claude-plugin/lessons"

// marketplaceHook is the marketplace plugin's hook program: it runs
// `lessons hook` when lessons is installed, and otherwise answers {} and
// says once, at a session start, how to install it.
//
//go:embed claudeplugin/lessons-hook.sh
var marketplaceHook []byte

// MarketplaceFiles are the files of the plugin a marketplace install
// brings, by path relative to MarketplaceDir: the plugin that `lessons
// install --plugin` writes, except that it finds lessons on PATH, since
// the plugin arrives before (or without) the binaries.
func MarketplaceFiles(version string) map[string][]byte {
	files := pluginFiles(`"${CLAUDE_PLUGIN_ROOT}/bin/lessons-hook" hook --platform claude`, "lessons", version)
	files["bin/lessons-hook"] = marketplaceHook
	return files
}
