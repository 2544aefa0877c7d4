// Package scope finds the lesson stores that apply to a directory and
// merges them, by precedence, into one view that the engine compiles into
// a manifest. It reads files only through a Loader, so it stays free of
// YAML and git and the hook's small binary can link it.
package scope

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
)

// Dirs are the places lessons keeps its files.
type Dirs struct {
	Home  string // global store: $LESSONS_HOME, else $XDG_DATA_HOME/lessons
	Cache string // manifests and pack clones: $XDG_CACHE_HOME/lessons
	State string // sessions, events, candidates: $XDG_STATE_HOME/lessons
}

// DefaultDirs reads the directories from the environment through getenv,
// falling back to the XDG defaults under the user's home directory
// ($HOME if absolute, else the user's passwd entry; see homeDir).
func DefaultDirs(getenv func(string) string) Dirs {
	home := homeDir(getenv, "/etc/passwd")
	xdg := func(name, fallback string) string {
		if d := getenv(name); d != "" && filepath.IsAbs(d) {
			return d
		}
		return filepath.Join(home, fallback)
	}
	d := Dirs{
		Home:  filepath.Join(xdg("XDG_DATA_HOME", ".local/share"), "lessons"),
		Cache: filepath.Join(xdg("XDG_CACHE_HOME", ".cache"), "lessons"),
		State: filepath.Join(xdg("XDG_STATE_HOME", ".local/state"), "lessons"),
	}
	if h := getenv("LESSONS_HOME"); h != "" {
		d.Home = h
	}
	return d
}

// GlobalLessons is the directory of the global store's lesson files.
func (d Dirs) GlobalLessons() string { return filepath.Join(d.Home, "lessons") }

// GlobalConfig is the global store's config file.
func (d Dirs) GlobalConfig() string { return filepath.Join(d.Home, "config.yaml") }

// PackRoot holds everything cached for a pack: its clone and versions.
func (d Dirs) PackRoot(name string) string { return filepath.Join(d.Cache, "packs", name) }

// PackLink is the small file that names the version of a pack that
// store (the directory of the subscribing config, lessons.PackRef.Store)
// has active: one line, a directory name under the pack's "versions".
// Replacing it by a rename switches versions atomically on every
// platform, Windows included, where symbolic links need privileges. Two
// projects pinning the same pack at different commits each have their own.
func (d Dirs) PackLink(name, store string) string {
	return filepath.Join(d.PackRoot(name), "active-"+NameHash(store))
}

// PackDir is the directory of the version that PackLink names; its lessons
// are in the "lessons" directory below it. When no version is active it is
// PackLink itself, which then does not exist (or, in caches written by
// lessons 0.1, is a symbolic link to the version).
func (d Dirs) PackDir(name, store string) string {
	link := d.PackLink(name, store)
	if v, ok := ReadPackLink(link); ok {
		return filepath.Join(d.PackRoot(name), PackVersionsDir, v)
	}
	return link
}

// PackVersionsDir holds a pack's validated versions, one directory each.
const PackVersionsDir = "versions"

// ReadPackLink returns the version directory's name that the pack link at
// path holds, and false when path is no such link: missing, not a regular
// file, too long, or not a plain name.
func ReadPackLink(path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 256 {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	v := strings.TrimSpace(string(data))
	if v == "" || v == "." || v == ".." || strings.ContainsAny(v, `/\`+"\x00") {
		return "", false
	}
	return v, true
}

// ManifestPath is the manifest for a project root; "" means outside any
// project.
func (d Dirs) ManifestPath(project string) string {
	name := "global"
	if project != "" {
		name = NameHash(project)
	}
	return filepath.Join(d.Cache, "manifests", name+".manifest")
}

// NameHash names a file after s (a path, a session id): 16 hex digits of
// its 64-bit FNV-1a hash. Names need no cryptographic hash, and the hook
// saves crypto/sha256's start-up on every call. The digits are written
// without fmt, whose first Sprintf (its printer pool, its code paged in)
// cost each hook call about 20 µs here.
func NameHash(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	const digits = "0123456789abcdef"
	var b [16]byte
	for i, v := len(b)-1, h.Sum64(); i >= 0; i, v = i-1, v>>4 {
		b[i] = digits[v&15]
	}
	return string(b[:])
}

// ProjectDirName is the folder holding a project's lessons and config.
const ProjectDirName = ".lessons"

// FindProject returns the nearest ancestor of dir (dir included) holding a
// .lessons directory, or "" when there is none. It costs one stat a level.
func FindProject(dir string) string {
	dir = filepath.Clean(dir)
	for {
		if fi, err := os.Stat(filepath.Join(dir, ProjectDirName)); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
