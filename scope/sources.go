package scope

import (
	"os"
	"path/filepath"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// sources stamps what a manifest built now depends on, so that Fresh costs
// a few stats: the global lessons directory and config, each pack's link
// to its active version, and the project's .lessons directory, its config and each of
// its files. Directories catch files added, removed or replaced atomically;
// the project's files are stamped one by one because editors that save in
// place leave the directory untouched. Paths that do not exist yet are
// stamped as missing, so their creation shows. The built-in lessons and
// the packs shipped with the binary change only with the binary. Every
// LESSONS_* variable a config key reads is stamped too, read through
// getenv.
func sources(d Dirs, project string, cfg lessons.Config, getenv func(string) string) []Stamp {
	paths := []string{d.GlobalLessons(), d.GlobalConfig()}
	for _, p := range cfg.Packs {
		if _, ok := lessons.BuiltinPackName(p.URL); ok {
			continue // changes only with the binary
		}
		// Versions never change once written; activating another
		// replaces the link.
		paths = append(paths, d.PackLink(p.Name, p.Store))
	}
	if project != "" {
		dir := filepath.Join(project, ProjectDirName)
		paths = append(paths, dir, ProjectConfig(project))
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if n := e.Name(); !e.IsDir() && n != ConfigName && isYAML(n) {
				paths = append(paths, filepath.Join(dir, n))
			}
		}
	}
	for _, key := range lessons.ConfigKeys() {
		paths = append(paths, envPrefix+lessons.EnvName(key))
	}
	stamps := make([]Stamp, len(paths))
	for i, p := range paths {
		stamps[i] = stampOf(p, getenv)
	}
	return stamps
}

func isYAML(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}
