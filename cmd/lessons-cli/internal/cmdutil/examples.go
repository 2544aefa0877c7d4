package cmdutil

import (
	"fmt"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// ExampleFailure is an example that does not behave as its lesson says.
type ExampleFailure struct {
	Field string // "examples.match[0]"
	Call  lessons.ToolCall
	Want  bool  // whether the lesson should match the call
	Err   error // the matcher's error, nil when it answered wrongly
}

func (f ExampleFailure) String() string { return f.Field + " " + f.Problem() }

// Problem says what is wrong with the example, without its field.
func (f ExampleFailure) Problem() string {
	call := f.Call.Command
	if !f.Call.IsPlainCommand() {
		call = fmt.Sprintf("%s %s", f.Call.EffectiveTool(), f.Call.Path)
		if f.Call.Command != "" {
			call += " " + f.Call.Command
		}
	}
	switch {
	case f.Err != nil:
		return fmt.Sprintf("%q: %v", call, f.Err)
	case f.Want:
		return fmt.Sprintf("%q: does not match, but should", call)
	}
	return fmt.Sprintf("%q: matches, but should not", call)
}

// CheckExamples runs each of a lesson's examples through the hook's own
// matcher and returns how many ran and those that did not behave as
// declared.
func CheckExamples(l *lessons.Lesson) (int, []ExampleFailure) {
	var fails []ExampleFailure
	for _, set := range []struct {
		field string
		calls []lessons.ToolCall
		want  bool
	}{
		{"examples.match", l.Examples.Match, true},
		{"examples.noMatch", l.Examples.NoMatch, false},
	} {
		for i, c := range set.calls {
			got, err := engine.MatchLesson(l, c)
			if err != nil || got != set.want {
				fails = append(fails, ExampleFailure{Field: fmt.Sprintf("%s[%d]", set.field, i), Call: c, Want: set.want, Err: err})
			}
		}
	}
	return len(l.Examples.Match) + len(l.Examples.NoMatch), fails
}
