package lessons

import "strings"

// Scope names the store a lesson comes from. Higher scopes replace lower
// ones: builtin < learned < global < pack < project.
type Scope string

// The fixed scopes. Pack scopes are "pack:<name>" (see PackScope).
const (
	ScopeBuiltin Scope = "builtin"
	// ScopeLearned holds the reminders: candidates the hook says after
	// their error comes back before anyone reviews them. Every store a
	// person writes replaces them.
	ScopeLearned Scope = "learned"
	ScopeGlobal  Scope = "global"
	ScopeProject Scope = "project"
)

// PackScope is the scope of the named team pack.
func PackScope(name string) Scope { return Scope("pack:" + name) }

// Pack is the pack name of a pack scope, or "".
func (s Scope) Pack() string {
	name, ok := strings.CutPrefix(string(s), "pack:")
	if !ok {
		return ""
	}
	return name
}

// Rank orders scopes by precedence; a higher rank wins.
func (s Scope) Rank() int {
	switch {
	case s == ScopeBuiltin:
		return 0
	case s == ScopeLearned:
		return 1
	case s == ScopeGlobal:
		return 2
	case s.Pack() != "":
		return 3
	case s == ScopeProject:
		return 4
	}
	return -1
}

// Kind is the scope without its pack name: builtin, global, pack or project.
func (s Scope) Kind() string {
	if s.Pack() != "" {
		return "pack"
	}
	return string(s)
}
