package scope

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	lessons "github.com/lessons-dev/lessons"
)

// Store is one directory of lessons that applies to a working directory.
type Store struct {
	Scope lessons.Scope
	// Dir holds the store's *.yaml lesson files; for the built-in store it
	// is "lessons.d" inside lessons.Builtin. A project's Dir is its
	// .lessons directory, which also holds config.yaml (ConfigName): that
	// file is not a lesson.
	Dir string
	// Config is the store's config.yaml, "" when it has none.
	Config string
	// AllowBlock lets the store's lessons block tool calls (packs only
	// when their subscriber allows it; every other scope may).
	AllowBlock bool
	// Embedded says Dir is inside lessons.Builtin, as for a pack shipped
	// with the binary; the built-in store always is.
	Embedded bool
}

// Resolved is a lesson in the merged view, with where it came from.
type Resolved struct {
	lessons.Lesson
	Scope lessons.Scope
	Path  string
	// Overrides names the lessons this one replaced, as "scope:path".
	Overrides []string
	// AllowBlock is false for a pack lesson whose pack may not block.
	AllowBlock bool
}

// Exclusion is a lesson left out of the manifest, and why.
type Exclusion struct {
	Resolved
	Reason string // "disabled", "overridden by project:…", "confidence 0.3 < 0.5", …
}

// Merged is every store that applies to a directory, merged by precedence.
type Merged struct {
	Project  string // project root, "" outside any project
	Config   lessons.Config
	Active   []Resolved
	Excluded []Exclusion
	Stack    []string // tags of the project's stack, e.g. "lang:go"
	Sources  []Stamp  // what the manifest depends on, for Fresh
	Warnings []error  // files that failed to load, each naming file and line
	// Overrides are the lessons that took, or tried to take, the slug or
	// id of a lesson of a lower scope, in merge order.
	Overrides []Override
}

// Override is a lesson that reuses the slug or id of a lesson of a lower
// scope, which it replaces unless Refused.
type Override struct {
	By Resolved // the overriding lesson
	Of Resolved // the lesson it replaces
	// Refused is true when By's scope may not block and Of blocks: a
	// scope that may not block may not unblock either, so Of stays and By
	// is excluded. Only the user's own disable turns a block off.
	Refused bool
}

// Loader reads stores from disk; the repo package implements it.
type Loader interface {
	// Lessons loads every lesson file of the store. A file that fails to
	// load is an error naming it (and its line) and the others still load.
	Lessons(s Store) ([]Resolved, []error)
	// Config reads one config.yaml; a missing file is the zero Config.
	Config(path string) (lessons.Config, error)
}

// Merge merges every store that applies to cwd. The config is
// DefaultConfig overlaid by the global config, then the project's, then
// LESSONS_* variables. A higher scope's lesson replaces a lower one with
// the same slug or id; lessons that are invalid, disabled, under review,
// or below the minimum confidence or priority are excluded with a reason.
// Nothing fails: files and variables that do not load become Warnings and
// everything else still merges.
func Merge(d Dirs, cwd string, l Loader) Merged {
	return merge(d, FindProject(cwd), l, nil, os.Getenv)
}

// Reminders are lessons from outside the stores, ranked below every store
// but the built-in one: the candidates the hook may say after their
// error comes back before anyone reviews them (scope learned). A lesson
// of any store with the same slug or id replaces one, and the config
// filters them as it does the others.
type Reminders struct {
	// Dir is where they are read from: a change there makes the manifest
	// stale.
	Dir string
	// Of returns the reminders for a project ("" outside any) under cfg.
	Of func(project string, cfg lessons.Config) []Resolved
}

// MergeWith is Merge with reminders (nil: none).
func MergeWith(d Dirs, cwd string, l Loader, rem *Reminders) Merged {
	return merge(d, FindProject(cwd), l, rem, os.Getenv)
}

// Config is the configuration that applies to cwd, as Merge computes it,
// without loading any lesson; warnings name what did not load.
func Config(d Dirs, cwd string, l Loader) (lessons.Config, []error) {
	var m Merged
	cfg := m.loadConfig(d, FindProject(cwd), l, os.Getenv)
	return cfg, m.Warnings
}

func merge(d Dirs, project string, l Loader, rem *Reminders, getenv func(string) string) Merged {
	m := Merged{Project: project}
	m.Config = m.loadConfig(d, project, l, getenv)
	// Stamp before reading, so a file changed while loading makes the
	// manifest stale rather than wrongly fresh.
	m.Sources = sources(d, project, m.Config, getenv)
	if rem != nil {
		m.Sources = append(m.Sources, stampOf(rem.Dir, getenv))
	}
	var all []Resolved
	for _, s := range stores(d, project, m.Config) {
		if s.Scope != lessons.ScopeBuiltin && rem != nil {
			// lowest precedence first: the reminders after the built-ins
			for _, r := range rem.Of(project, m.Config) {
				r.Scope, r.AllowBlock = lessons.ScopeLearned, false
				all = append(all, r)
			}
			rem = nil
		}
		ls, errs := l.Lessons(s)
		m.Warnings = append(m.Warnings, errs...)
		for _, r := range ls {
			r.Scope, r.AllowBlock = s.Scope, s.AllowBlock
			all = append(all, r)
		}
	}
	m.resolve(all)
	if project != "" {
		m.Stack = DetectStack(project)
	}
	return m
}

// loadConfig overlays the default config with the global and project files
// and the environment.
func (m *Merged) loadConfig(d Dirs, project string, l Loader, getenv func(string) string) lessons.Config {
	cfg := lessons.DefaultConfig()
	paths := []string{d.GlobalConfig()}
	if project != "" {
		paths = append(paths, ProjectConfig(project))
	}
	for _, p := range paths {
		c, err := l.Config(p)
		if err != nil {
			m.Warnings = append(m.Warnings, err)
			continue
		}
		for i := range c.Packs {
			c.Packs[i].Store = filepath.Dir(p)
		}
		cfg = cfg.Overlay(c)
	}
	withEnv, err := cfg.ApplyEnv(getenv)
	if err != nil {
		m.Warnings = append(m.Warnings, err)
		return cfg
	}
	return withEnv
}

// resolve splits the lessons, lowest precedence first, into Active and
// Excluded.
func (m *Merged) resolve(all []Resolved) {
	var kept []*Resolved
	bySlug, byID := map[string]*Resolved{}, map[string]*Resolved{}
	excluded := map[*Resolved]string{}
	for i := range all {
		r := &all[i]
		if errs := lessons.Errors(lessons.Validate(&r.Lesson)); len(errs) > 0 {
			m.Excluded = append(m.Excluded, Exclusion{Resolved: *r, Reason: "invalid: " + errs[0].Error()})
			m.Warnings = append(m.Warnings, fmt.Errorf("%s: %w (lesson skipped)", r.Path, errs[0]))
			continue
		}
		var lower []*Resolved
		for _, prev := range []*Resolved{bySlug[r.Slug], byID[r.ID]} {
			if prev != nil && (len(lower) == 0 || lower[0] != prev) && excluded[prev] == "" {
				lower = append(lower, prev)
			}
		}
		if same := sameRank(lower, r); same != nil {
			switch {
			case blocks(r) && !same.AllowBlock:
				// Whichever pack came first, one that may not block
				// never shadows a block: the blocking lesson takes
				// the place.
				excluded[same] = refusal(same, r)
				m.Overrides = append(m.Overrides, Override{By: *same, Of: *r, Refused: true})
				lower = slices.DeleteFunc(lower, func(p *Resolved) bool { return p == same })
			case blocks(same) && !r.AllowBlock:
				m.Overrides = append(m.Overrides, Override{By: *r, Of: *same, Refused: true})
				m.Excluded = append(m.Excluded, Exclusion{Resolved: *r, Reason: refusal(r, same)})
				continue
			default:
				excluded[r] = "duplicate of " + origin(same)
				kept = append(kept, r)
				continue
			}
		}
		if guard := blocking(lower); guard != nil && !r.AllowBlock {
			for _, prev := range lower {
				m.Overrides = append(m.Overrides, Override{By: *r, Of: *prev, Refused: true})
			}
			m.Excluded = append(m.Excluded, Exclusion{Resolved: *r, Reason: refusal(r, guard)})
			continue
		}
		for _, prev := range lower {
			excluded[prev] = "overridden by " + origin(r)
			r.Overrides = append(r.Overrides, origin(prev))
			m.Overrides = append(m.Overrides, Override{By: *r, Of: *prev})
		}
		kept = append(kept, r)
		if r.Slug != "" {
			bySlug[r.Slug] = r
		}
		if r.ID != "" {
			byID[r.ID] = r
		}
	}
	disabled, allowed := map[string]bool{}, map[string]bool{}
	for _, s := range m.Config.Disable {
		disabled[s] = true
	}
	for _, s := range m.Config.Allow {
		allowed[s] = true
	}
	for _, r := range kept {
		reason := excluded[r]
		if reason == "" {
			reason = m.filter(r, disabled)
		}
		if reason != "" {
			m.Excluded = append(m.Excluded, Exclusion{Resolved: *r, Reason: reason})
			continue
		}
		if allowed[r.Slug] || allowed[r.ID] {
			// The config permits its calls: the manifest keeps the text
			// and drops the refusal.
			r.AllowBlock = false
		}
		m.Active = append(m.Active, *r)
	}
}

// sameRank returns the first of lower that r cannot replace because it
// comes from a scope of the same precedence (two files of one store, or two
// packs), or nil.
func sameRank(lower []*Resolved, r *Resolved) *Resolved {
	for _, prev := range lower {
		if prev.Scope.Rank() >= r.Scope.Rank() {
			return prev
		}
	}
	return nil
}

// blocking returns the first of lower that blocks tool calls, or nil.
func blocking(lower []*Resolved) *Resolved {
	for _, prev := range lower {
		if blocks(prev) {
			return prev
		}
	}
	return nil
}

// blocks reports whether r blocks tool calls: it says so and its store
// may block.
func blocks(r *Resolved) bool { return r.Block && r.AllowBlock }

// refusal is why r, whose store may not block, is excluded for reusing
// the slug or id of the blocking lesson guard.
func refusal(r, guard *Resolved) string {
	return fmt.Sprintf("may not replace the blocking lesson %s: %s may not block (allowBlock), so it may not unblock either", origin(guard), r.Scope)
}

// filter is why the config excludes r, or "".
func (m *Merged) filter(r *Resolved, disabled map[string]bool) string {
	switch {
	case disabled[r.Slug] || disabled[r.ID]:
		return "disabled"
	case r.NeedsReview:
		return "needs review"
	case !m.Config.Admits(r.EffectiveConfidence(), r.AfterOnly()):
		if r.AfterOnly() {
			return fmt.Sprintf("confidence %g < minErrorConfidence %g", r.EffectiveConfidence(), min(m.Config.MinErrorConfidence, m.Config.MinConfidence))
		}
		return fmt.Sprintf("confidence %g < minConfidence %g", r.EffectiveConfidence(), m.Config.MinConfidence)
	case r.EffectivePriority() < m.Config.MinPriority:
		return fmt.Sprintf("priority %d < minPriority %d", r.EffectivePriority(), m.Config.MinPriority)
	}
	return ""
}

// origin names where a lesson lives, as "scope:path".
func origin(r *Resolved) string { return string(r.Scope) + ":" + r.Path }
