package scope

import (
	"os"
)

// Stamp records the state of one source of a manifest when it was built:
// a directory (so added or removed files show), a file (so edits in place
// show), or a path that did not exist (so its creation shows).
type Stamp struct {
	Path    string
	Size    int64
	ModTime int64 // nanoseconds since the epoch
	Missing bool
}

// StampOf stats path now.
func StampOf(path string) Stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{Path: path, Missing: true}
	}
	return Stamp{Path: path, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
}

// Fresh reports whether every stamp still holds: one stat per stamp.
func Fresh(stamps []Stamp) bool {
	for _, s := range stamps {
		if StampOf(s.Path) != s {
			return false
		}
	}
	return true
}
