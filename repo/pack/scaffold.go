package pack

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"go.yaml.in/yaml/v3"

	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// scaffold holds the files of a new pack; *.tmpl files are templates of
// a Meta.
//
//go:embed all:scaffold
var scaffold embed.FS

// Meta is what pack.yaml says about a pack.
type Meta struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Maintainers []string `json:"maintainers,omitempty"`
	MinVersion  string   `json:"minVersion,omitempty"`
}

var funcs = template.FuncMap{
	"join": strings.Join,
	// yaml quotes a scalar when YAML needs it.
	"yaml": func(s string) string {
		out, _ := yaml.Marshal(s)
		return strings.TrimSuffix(string(out), "\n")
	},
}

// Init scaffolds a pack in dir: pack.yaml, a README on proposing a lesson,
// a CODEOWNERS template, a CI workflow that runs `lessons test` and
// `lessons doctor` on every pull request, and an empty lessons/. It makes
// dir a git repository (branch main, no commit) unless it is inside one.
// It writes nothing when one of the files exists, and returns the files
// it created, relative to dir.
func Init(dir string, meta Meta) ([]string, error) {
	if err := CheckName(meta.Name); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	err := fs.WalkDir(scaffold, "scaffold", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := scaffold.ReadFile(p)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(p, "scaffold/")
		if tmplName, ok := strings.CutSuffix(name, ".tmpl"); ok {
			t, err := template.New(name).Funcs(funcs).Parse(string(data))
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := t.Execute(&buf, meta); err != nil {
				return err
			}
			name, data = tmplName, buf.Bytes()
		}
		files[name] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := repo.Decode(repo.PackSchema, "pack.yaml", files["pack.yaml"], &Meta{}); err != nil {
		return nil, fmt.Errorf("the pack.yaml this would write is invalid: %w", err)
	}
	var exist []string
	for name := range files {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			exist = append(exist, name)
		}
	}
	if len(exist) > 0 {
		return nil, fmt.Errorf("%s already has %s: not overwriting", dir, strings.Join(exist, ", "))
	}
	var created []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		data := files[name]
		if err := scope.WriteFileAtomic(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			return created, err
		}
		created = append(created, name)
	}
	_, err = git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		_, err = git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	}
	return created, err
}
