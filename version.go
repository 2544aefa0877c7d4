package lessons

import (
	"strconv"
	"strings"
)

// Version is this release of lessons; packs name the oldest they need.
// Releases stamp it (-ldflags "-X github.com/lessons-dev/lessons.Version=…").
var Version = "0.1.0"

// Commit is the source revision a release was built from, stamped like
// Version; empty in other builds.
var Commit = ""

// Supports reports whether this release is at least min, a semantic
// version such as "0.2.0" or "v1.0.0-rc1" (pre-release and build parts
// are ignored). A malformed min is not supported.
func Supports(min string) bool {
	want, ok := semver(min)
	have, _ := semver(Version)
	if !ok {
		return false
	}
	for i := range want {
		if have[i] != want[i] {
			return have[i] > want[i]
		}
	}
	return true
}

func semver(v string) ([3]int, bool) {
	var out [3]int
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}
