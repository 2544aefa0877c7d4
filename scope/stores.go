package scope

import (
	"io/fs"
	"path"
	"path/filepath"

	lessons "github.com/lessons-dev/lessons"
)

// BuiltinDir is the built-in store's directory inside lessons.Builtin.
const BuiltinDir = "lessons.d"

// BuiltinPacksDir holds, inside lessons.Builtin, one directory per opt-in
// pack shipped with the binary; "builtin:NAME" subscribes to one.
const BuiltinPacksDir = BuiltinDir + "/packs"

// BuiltinPacks lists the names of the packs shipped with the binary.
func BuiltinPacks() []string {
	entries, _ := fs.ReadDir(lessons.Builtin, BuiltinPacksDir)
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// ConfigName is the config file of the global store and of a project's
// .lessons directory. The loader never reads it as a lesson.
const ConfigName = "config.yaml"

// ProjectConfig is the config file of the project rooted at root.
func ProjectConfig(root string) string {
	return filepath.Join(root, ProjectDirName, ConfigName)
}

// Stores lists, lowest precedence first, the stores that apply to cwd:
// the built-in pack, the global store, each pack cfg subscribes to, and the
// project's .lessons directory when cwd is inside a project.
func Stores(d Dirs, cwd string, cfg lessons.Config) []Store {
	return stores(d, FindProject(cwd), cfg)
}

func stores(d Dirs, project string, cfg lessons.Config) []Store {
	out := []Store{
		{Scope: lessons.ScopeBuiltin, Dir: BuiltinDir, AllowBlock: true},
		{Scope: lessons.ScopeGlobal, Dir: d.GlobalLessons(), Config: d.GlobalConfig(), AllowBlock: true},
	}
	for _, p := range cfg.Packs {
		if name, ok := lessons.BuiltinPackName(p.URL); ok {
			out = append(out, Store{Scope: lessons.PackScope(p.Name), Dir: path.Join(BuiltinPacksDir, name),
				Embedded: true, AllowBlock: p.AllowBlock})
			continue
		}
		out = append(out, Store{
			Scope:      lessons.PackScope(p.Name),
			Dir:        filepath.Join(d.PackDir(p.Name, p.Store), "lessons"),
			AllowBlock: p.AllowBlock,
		})
	}
	if project != "" {
		out = append(out, Store{
			Scope:      lessons.ScopeProject,
			Dir:        filepath.Join(project, ProjectDirName),
			Config:     ProjectConfig(project),
			AllowBlock: true,
		})
	}
	return out
}
