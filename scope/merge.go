package scope

import (
	lessons "github.com/lessons-dev/lessons"
)

// Store is one directory of lessons that applies to a working directory.
type Store struct {
	Scope lessons.Scope
	// Dir holds the store's *.yaml lesson files; for the built-in store it
	// is "lessons.d" inside lessons.Builtin.
	Dir string
	// Config is the store's config.yaml, "" when it has none.
	Config string
	// AllowBlock lets the store's lessons block tool calls (packs only
	// when their subscriber allows it; every other scope may).
	AllowBlock bool
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
}

// Loader reads stores from disk; the repo package implements it.
type Loader interface {
	// Lessons loads every lesson file of the store. A file that fails to
	// load is an error naming it (and its line) and the others still load.
	Lessons(s Store) ([]Resolved, []error)
	// Config reads one config.yaml; a missing file is the zero Config.
	Config(path string) (lessons.Config, error)
}
