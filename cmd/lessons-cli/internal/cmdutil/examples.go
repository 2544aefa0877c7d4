package cmdutil

import (
	"fmt"
	"strings"

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
	bare := f.Call
	bare.Error = ""         // said after the call
	bare.Background = false // said after the call
	call := bare.Command
	if !bare.IsPlainCommand() {
		call = fmt.Sprintf("%s %s", bare.EffectiveTool(), bare.Path)
		if bare.Command != "" {
			call += " " + bare.Command
		}
	}
	what := fmt.Sprintf("%q", call)
	if f.Call.Background {
		what += " run in the background"
	}
	if f.Call.Error != "" {
		what += fmt.Sprintf(" failing with %q", clipLine(f.Call.Error, 80))
	}
	switch {
	case f.Err != nil:
		return fmt.Sprintf("%s: %v", what, f.Err)
	case f.Want:
		return what + ": does not match, but should"
	}
	return what + ": matches, but should not"
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

// clipLine is the first line of s, cut to n runes.
func clipLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
