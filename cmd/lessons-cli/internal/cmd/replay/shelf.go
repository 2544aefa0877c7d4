package replay

import (
	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scope"
)

// shelf holds the learned lessons of one scope (a project, or "" for the
// global ones) compiled in chunks, as a base-4 counter carries: adding
// a lesson compiles it alone into a chunk of level 0, and whenever the
// last four chunks have the same level they merge into one of the next.
// Each lesson is compiled about log4(n)+1 times in all, and a call is
// matched against at most 3 chunks a level.
type shelf struct {
	key string
	// compiled counts the lessons compiled so far, merges included.
	compiled int
	mg       scope.Merged
	chunks   []*chunk
}

// scopeOf is the scope a learned lesson is compiled with.
func scopeOf(l *learnedLesson) lessons.Scope {
	if l.project != "" {
		return lessons.ScopeProject
	}
	return lessons.ScopeGlobal
}

// chunk is a manifest of learned lessons, and the lesson and form each
// entry was compiled from.
type chunk struct {
	m     *engine.Manifest
	from  []*learnedLesson
	vers  []int
	level int
}

// fanIn is how many chunks of a level merge into one of the next.
const fanIn = 4

// current reports whether entry i is the lesson's form now, on this
// shelf.
func (c *chunk) current(i int, key string) bool {
	l := c.from[i]
	return l != nil && c.vers[i] == l.ver && l.live && !l.held && l.project == key
}

func (sh *shelf) add(l *learnedLesson, forget func(*engine.Manifest)) error {
	c, err := sh.compile([]*learnedLesson{l})
	if err != nil {
		return err
	}
	sh.chunks = append(sh.chunks, c)
	for n := len(sh.chunks); n >= fanIn && sameLevel(sh.chunks[n-fanIn:]); n = len(sh.chunks) {
		var ls []*learnedLesson
		for _, c := range sh.chunks[n-fanIn:] {
			for i, l := range c.from {
				if c.current(i, sh.key) {
					ls = append(ls, l)
				}
			}
			forget(c.m)
		}
		merged, err := sh.compile(ls)
		if err != nil {
			return err
		}
		merged.level = sh.chunks[n-1].level + 1
		sh.chunks = append(sh.chunks[:n-fanIn], merged)
	}
	return nil
}

func sameLevel(cs []*chunk) bool {
	for _, c := range cs {
		if c.level != cs[0].level {
			return false
		}
	}
	return true
}

// compile makes a chunk of ls, with the config and stack of the replay.
func (sh *shelf) compile(ls []*learnedLesson) (*chunk, error) {
	mg := sh.mg
	mg.Active = make([]scope.Resolved, len(ls))
	bySlug := make(map[string]*learnedLesson, len(ls))
	for i, l := range ls {
		mg.Active[i] = scope.Resolved{Lesson: l.lesson, Scope: scopeOf(l)}
		bySlug[l.lesson.Slug] = l
	}
	m, err := engine.Compile(mg, scope.Stamp{})
	if err != nil {
		return nil, err
	}
	sh.compiled += len(ls)
	c := &chunk{m: m, from: make([]*learnedLesson, m.Len()), vers: make([]int, m.Len())}
	for i := range c.from {
		e, err := m.Entry(i)
		if err != nil {
			return nil, err
		}
		if l := bySlug[e.Slug]; l != nil { // a lesson whose pattern failed is not in m
			c.from[i], c.vers[i] = l, l.ver
		}
	}
	return c, nil
}

// extras are the shelf's chunks as the replay's extra manifests.
func (sh *shelf) extras() []engine.Extra {
	out := make([]engine.Extra, len(sh.chunks))
	for k, c := range sh.chunks {
		out[k] = engine.Extra{Manifest: c.m, Skip: func(i int) bool { return !c.current(i, sh.key) }}
	}
	return out
}
