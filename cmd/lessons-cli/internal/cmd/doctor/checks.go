package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// checkup gathers findings over every store that applies.
type checkup struct {
	dirs     scope.Dirs
	loader   scope.Loader
	findings []Finding
	loaded   []scope.Resolved
}

func (c *checkup) add(sev, file string, line, col int, field, msg, fix string) {
	c.findings = append(c.findings, Finding{Severity: sev, File: file, Line: line, Column: col, Field: field, Message: msg, Fix: fix})
}

// run checks configs, lesson files, duplicates, lessons refused for
// reusing a block's slug or id, and the manifest, and
// returns how many lesson files it read.
func (c *checkup) run(cwd string) int {
	project := scope.FindProject(cwd)
	cfg := lessons.DefaultConfig()
	configs := []string{c.dirs.GlobalConfig()}
	if project != "" {
		configs = append(configs, scope.ProjectConfig(project))
	}
	for _, p := range configs {
		got, err := c.loader.Config(p)
		if err != nil {
			c.fileError(p, err)
			continue
		}
		cfg = cfg.Overlay(got)
	}
	n := 0
	for _, s := range scope.Stores(c.dirs, cwd, cfg) {
		n += c.store(s)
	}
	c.duplicates()
	c.refusedOverrides(cwd)
	c.manifest(project)
	return n
}

// store checks each lesson file of s.
func (c *checkup) store(s scope.Store) int {
	fsys, dir, display := fs.FS(os.DirFS(s.Dir)), ".", func(name string) string { return filepath.Join(s.Dir, name) }
	read := func(name string) ([]byte, error) { return repo.ReadFile(display(name)) }
	if s.Scope == lessons.ScopeBuiltin {
		fsys, dir, display = lessons.Builtin, s.Dir, func(name string) string { return path.Join(s.Dir, name) }
		read = func(name string) ([]byte, error) { return fs.ReadFile(fsys, path.Join(dir, name)) }
	}
	entries, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	if err != nil {
		c.add(SeverityError, s.Dir, 0, 0, "", err.Error(), "check the directory's permissions")
		return 0
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || name == scope.ConfigName || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		n++
		data, err := read(name)
		if errors.Is(err, scope.ErrNotRegular) {
			c.add(SeverityError, display(name), 0, 0, "", err.Error(), "remove it, or replace it with a regular file")
			continue
		}
		if err != nil {
			c.add(SeverityError, display(name), 0, 0, "", err.Error(), "check the file's permissions")
			continue
		}
		c.lesson(s, display(name), strings.TrimSuffix(strings.TrimSuffix(name, ".yaml"), ".yml"), data)
	}
	return n
}

// lesson checks one lesson file: schema and validation (with warnings),
// its name, backtracking, and its examples.
func (c *checkup) lesson(s scope.Store, file, base string, data []byte) {
	l, ps := repo.CheckLesson(file, data)
	for _, p := range ps {
		sev := SeverityError
		if p.Warning {
			sev = SeverityWarning
		}
		c.add(sev, p.File, p.Line, p.Column, p.Field, p.Msg, fixFor(p))
	}
	if l == nil || ps.Err() != nil {
		return
	}
	if l.Slug != base {
		c.add(SeverityError, file, 0, 0, "slug", fmt.Sprintf("is %q but the file is named %s", l.Slug, filepath.Base(file)),
			"rename the file to "+l.Slug+".yaml, or set slug to "+base)
	}
	for kind, list := range map[string][]string{"commands": l.Triggers.Commands, "unless": l.Triggers.Unless, "content": l.Triggers.Content} {
		for i, src := range list {
			if err := lessons.ProbeBacktracking(src); err != nil {
				c.add(SeverityError, file, 0, 0, fmt.Sprintf("triggers.%s[%d]", kind, i), fmt.Sprintf("%q: %v", src, err),
					"remove nested quantifiers such as (a+)+ or (.*)*; use unless: for exclusions instead of lookaround")
			}
		}
	}
	_, fails := cmdutil.CheckExamples(l)
	for _, f := range fails {
		c.add(SeverityError, file, 0, 0, f.Field, f.Problem(), "fix the trigger or the example, then run lessons test")
	}
	c.loaded = append(c.loaded, scope.Resolved{Lesson: *l, Scope: s.Scope, Path: file})
}

// duplicates finds ids used twice in one scope, and lessons that say
// (nearly) the same thing without one replacing the other.
func (c *checkup) duplicates() {
	hashes := make([]string, len(c.loaded))
	for i := range c.loaded {
		hashes[i] = repo.ContentHash(&c.loaded[i].Lesson)
	}
	for i := range c.loaded {
		a := &c.loaded[i]
		for j := i + 1; j < len(c.loaded); j++ {
			b := &c.loaded[j]
			replaces := a.Slug == b.Slug || a.ID == b.ID
			switch {
			case a.ID == b.ID && a.Scope == b.Scope:
				c.add(SeverityError, b.Path, 0, 0, "id", fmt.Sprintf("%s is also the id of %s", b.ID, a.Path),
					"give one of them a new id (remove the id line and run lessons add --file)")
			case replaces:
			case hashes[i] == hashes[j]:
				c.add(SeverityWarning, b.Path, 0, 0, "", fmt.Sprintf("says exactly what %s (%s) says", a.Slug, a.Path),
					"remove one of them, or lessons disable "+b.Slug)
			default:
				if s := lessons.Similarity(&a.Lesson, &b.Lesson); s >= lessons.NearDuplicateThreshold {
					c.add(SeverityWarning, b.Path, 0, 0, "", fmt.Sprintf("shares %.0f%% of its words with %s (%s)", s*100, a.Slug, a.Path),
						"merge the two lessons into one, or give the copy the same slug to replace the other")
				} else if ex, ok := cmdutil.SameMistake(&a.Lesson, &b.Lesson); ok && cmdutil.SaysSame(&a.Lesson, &b.Lesson) {
					c.add(SeverityWarning, b.Path, 0, 0, "", fmt.Sprintf("catches the same mistake as %s (%s, %s scope): both fire on %q and inject together", a.Slug, a.Path, a.Scope, ex),
						"merge the two lessons into one, disable one (lessons disable SLUG), or give the copy the same slug to replace the other")
				}
			}
		}
	}
}

// manifest reports a missing or stale manifest.
func (c *checkup) manifest(project string) {
	p := c.dirs.ManifestPath(project)
	m, err := engine.Open(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.add(SeverityWarning, p, 0, 0, "", "there is no manifest for this directory yet", "run lessons build (the hook also builds it on first use)")
	case err != nil:
		c.add(SeverityWarning, p, 0, 0, "", err.Error(), "run lessons build")
	default:
		if !m.Fresh() {
			c.add(SeverityWarning, p, 0, 0, "", "the manifest is stale: a lesson or config changed since it was built", "run lessons build (the hook rebuilds it at its next call)")
		}
		_ = m.Close()
	}
}

// fileError records a config file that does not load, each problem at
// its line.
func (c *checkup) fileError(file string, err error) {
	var ps repo.Problems
	if errors.As(err, &ps) {
		for _, p := range ps {
			c.add(SeverityError, p.File, p.Line, p.Column, p.Field, p.Msg, fixFor(p))
		}
		return
	}
	c.add(SeverityError, file, 0, 0, "", err.Error(), "fix the file so it follows schemas/config.schema.json")
}

// fixFor says how to fix a problem of a lesson or config file.
func fixFor(p *repo.FileError) string {
	msg := strings.ToLower(p.Msg)
	switch {
	case p.Field == "" && p.Line > 0:
		return "fix the YAML syntax at that line"
	case strings.Contains(msg, "regex"):
		return `fix the regex: patterns are ECMAScript (regexp2); escape ( [ { . with \`
	case strings.HasPrefix(p.Field, "triggers.tools"):
		return "use a tool an agent has: " + strings.Join(lessons.CanonicalTools, ", ") + ", or an mcp__ name"
	case strings.HasPrefix(p.Field, "examples"):
		return "add examples.match and examples.noMatch calls, then run lessons test"
	case strings.Contains(msg, "unknown key"):
		return "remove the key or fix its spelling"
	case strings.Contains(msg, "placeholder"):
		return "replace the placeholder with the real text"
	case strings.Contains(msg, "missing"):
		return "add the field"
	}
	return "edit the field so it follows the schema in schemas/"
}
