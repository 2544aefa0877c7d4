package lessons

import "strings"

// BuiltinPackScheme prefixes the URL of a pack shipped inside the binary
// (lessons.d/packs/NAME): "builtin:NAME". Such a pack is opt-in, like a
// team pack, but needs no git, no network and no sync.
const BuiltinPackScheme = "builtin:"

// BuiltinPackName returns NAME for a "builtin:NAME" URL, and whether url
// names a built-in pack at all.
func BuiltinPackName(url string) (string, bool) {
	name, ok := strings.CutPrefix(url, BuiltinPackScheme)
	return name, ok && name != ""
}
