package scope

import (
	"hash/fnv"
	"os"
	"strings"
)

// Stamp records the state of one source of a manifest when it was built:
// a directory (so added or removed files show), a file (so edits in place
// show), a path that did not exist (so its creation shows), or, for a Path
// "env:NAME", the environment variable NAME (so LESSONS_DISABLE and the
// like take effect without a rebuild by hand).
type Stamp struct {
	Path    string
	Size    int64
	ModTime int64 // nanoseconds since the epoch
	Missing bool
}

// envPrefix marks the stamp of an environment variable.
const envPrefix = "env:"

// StampOf stats path now, or reads the variable of an "env:" stamp.
func StampOf(path string) Stamp { return stampOf(path, os.Getenv) }

func stampOf(path string, getenv func(string) string) Stamp {
	if name, ok := strings.CutPrefix(path, envPrefix); ok {
		v := getenv(name)
		if v == "" {
			return Stamp{Path: path, Missing: true}
		}
		h := fnv.New64a()
		h.Write([]byte(v))
		return Stamp{Path: path, Size: int64(len(v)), ModTime: int64(h.Sum64())}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{Path: path, Missing: true}
	}
	return Stamp{Path: path, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
}

// Fresh reports whether every stamp still holds: one stat (or one
// variable lookup) per stamp.
func Fresh(stamps []Stamp) bool {
	for _, s := range stamps {
		if StampOf(s.Path) != s {
			return false
		}
	}
	return true
}
