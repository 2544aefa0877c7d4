package agents

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"regexp"
)

// PluginFile is the name of the opencode plugin in opencode's plugin
// directory. opencode loads *.js and *.ts files from it, not *.mjs.
const PluginFile = "lessons.js"

//go:embed opencode/lessons.js
var pluginSource []byte

// pluginMarker starts the plugin: a file that starts otherwise is not
// lessons', and install and uninstall leave it alone.
var pluginMarker = []byte("// lessons opencode plugin.")

const binPlaceholder = `"__LESSONS_BIN__"`

// PluginSource is the opencode plugin running the lessons binary at bin.
func PluginSource(bin string) []byte {
	quoted, _ := json.Marshal(bin)
	return bytes.Replace(pluginSource, []byte(binPlaceholder), quoted, 1)
}

// IsOurPlugin reports whether a plugin file is the one lessons installs.
func IsOurPlugin(data []byte) bool { return bytes.HasPrefix(data, pluginMarker) }

var pluginBin = regexp.MustCompile(`LESSONS_HOOK_BIN \|\| ("(?:[^"\\]|\\.)*")`)

// PluginBinary is the lessons binary an installed plugin runs, or "".
func PluginBinary(data []byte) string {
	m := pluginBin.FindSubmatch(data)
	if m == nil {
		return ""
	}
	var bin string
	if json.Unmarshal(m[1], &bin) != nil {
		return ""
	}
	return bin
}
