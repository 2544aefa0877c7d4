package cmdutil

import (
	"slices"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// SameMistake reports whether two lessons catch the same mistake, whatever
// their words: each one's trigger fires on a call the other gives as an
// example of the mistake. It returns the example of b that a's trigger
// fires on. Two such lessons inject together at every call.
func SameMistake(a, b *lessons.Lesson) (example string, ok bool) {
	if len(a.Examples.Match) == 0 || len(b.Examples.Match) == 0 || !shareTool(a, b) {
		return "", false
	}
	ex, ok := firesOnAny(a, b.Examples.Match)
	if !ok {
		return "", false
	}
	if _, ok := firesOnAny(b, a.Examples.Match); !ok {
		return "", false
	}
	return ex, true
}

func shareTool(a, b *lessons.Lesson) bool {
	tb := b.Triggers.ImpliedTools()
	return slices.ContainsFunc(a.Triggers.ImpliedTools(), func(t string) bool { return slices.Contains(tb, t) })
}

// firesOnAny returns the first of calls l's trigger fires on.
func firesOnAny(l *lessons.Lesson, calls []lessons.ToolCall) (string, bool) {
	for _, c := range calls {
		if ok, err := engine.MatchLesson(l, c); err == nil && ok {
			return c.Command + c.Path, true
		}
	}
	return "", false
}
