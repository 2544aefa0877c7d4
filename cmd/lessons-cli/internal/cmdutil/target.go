package cmdutil

import (
	"fmt"
	"os"
	"path/filepath"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Target is a store the CLI writes to: the global one, where every change
// is one commit, or a project's .lessons, which the user commits.
type Target struct {
	Scope  lessons.Scope
	Dir    string // the lesson files
	Config string // config.yaml
	// Store is the global store's repository; nil for a project.
	Store *repo.Store
}

// GlobalTarget is the global store.
func GlobalTarget(d scope.Dirs) Target {
	s := &repo.Store{Dir: d.Home}
	return Target{Scope: lessons.ScopeGlobal, Dir: s.LessonsDir(), Config: s.ConfigPath(), Store: s}
}

// ProjectTarget is the .lessons directory of the project at root.
func ProjectTarget(root string) Target {
	return Target{Scope: lessons.ScopeProject, Dir: filepath.Join(root, scope.ProjectDirName), Config: scope.ProjectConfig(root)}
}

// ChooseTarget picks the store for a new lesson or setting: the project
// or global one when asked, else the project when cwd is inside one.
func ChooseTarget(d scope.Dirs, cwd string, project, global bool) (Target, error) {
	if project && global {
		return Target{}, FlagErrorf("--project and --global cannot be used together")
	}
	root := scope.FindProject(cwd)
	switch {
	case global:
		return GlobalTarget(d), nil
	case project && root == "":
		return Target{}, Hintf("lessons init --project", "%s is not inside a project with a .lessons directory", cwd)
	case root != "":
		return ProjectTarget(root), nil
	}
	return GlobalTarget(d), nil
}

// FindOwned looks a lesson up by slug or id, as Find does, with the store
// that holds it; built-in and pack lessons are read-only, an error.
func FindOwned(d scope.Dirs, m scope.Merged, key string) (scope.Resolved, Target, error) {
	r, _, err := Find(m, key)
	if err != nil {
		return r, Target{}, err
	}
	t, err := targetOf(d, m, r)
	return r, t, err
}

func targetOf(d scope.Dirs, m scope.Merged, r scope.Resolved) (Target, error) {
	switch r.Scope {
	case lessons.ScopeGlobal:
		return GlobalTarget(d), nil
	case lessons.ScopeProject:
		return ProjectTarget(m.Project), nil
	}
	return Target{}, Hintf(
		fmt.Sprintf("lessons show %s > .lessons/%s.yaml to replace it in this project, or lessons disable %s", r.Slug, r.Slug, r.Slug),
		"%s is a %s lesson, which lessons does not change", r.Slug, r.Scope.Kind())
}

// Where names the target for messages: "the global store" or the
// project's directory.
func (t Target) Where() string {
	if t.Store != nil {
		return "the global store (" + t.Store.Dir + ")"
	}
	return t.Dir
}

// Create writes a new lesson file and, in the global store, commits it.
func (t Target) Create(l *lessons.Lesson, message string) (string, error) {
	return t.write(l, message, repo.CreateLesson)
}

// Write replaces a lesson's file and, in the global store, commits it.
func (t Target) Write(l *lessons.Lesson, message string) (string, error) {
	return t.write(l, message, repo.WriteLesson)
}

func (t Target) write(l *lessons.Lesson, message string, write func(string, *lessons.Lesson) (string, error)) (string, error) {
	return t.change(message, func() (string, error) { return write(t.Dir, l) })
}

// Remove deletes a lesson's file and, in the global store, commits that.
func (t Target) Remove(slug, message string) (string, error) {
	return t.change(message, func() (string, error) { return repo.RemoveLesson(t.Dir, slug) })
}

// change runs write; in the global store the write and its commit are one
// change under the store's lock (repo.Store.Change).
func (t Target) change(message string, write func() (string, error)) (string, error) {
	if t.Store != nil {
		return t.Store.Change(message, write)
	}
	if err := os.MkdirAll(t.Dir, 0o755); err != nil {
		return "", err
	}
	return write()
}

// Commit records paths as one commit in the global store; nothing for a
// project.
func (t Target) Commit(message string, paths ...string) error {
	if t.Store == nil {
		return nil
	}
	if _, err := t.Store.Commit(message, paths...); err != nil {
		return fmt.Errorf("the change is written but not committed: %w", err)
	}
	return nil
}
