package cmdutil

import (
	"slices"

	lessons "github.com/lessons-dev/lessons"
)

// Tools are the tools a trigger applies to: its own, or those every kind
// it sets implies (commands: Bash; content: the writing tools; paths: the
// file tools), since every kind must match.
func Tools(t lessons.Trigger) []string {
	if len(t.Tools) > 0 {
		return t.Tools
	}
	var out []string
	first := true
	for _, k := range []struct {
		set   bool
		tools []string
	}{
		{len(t.Commands) > 0, []string{"Bash"}},
		{len(t.Content) > 0, lessons.WritingTools},
		{len(t.Paths) > 0, lessons.FileTools},
	} {
		switch {
		case !k.set:
		case first:
			out, first = slices.Clone(k.tools), false
		default:
			out = slices.DeleteFunc(out, func(s string) bool { return !slices.Contains(k.tools, s) })
		}
	}
	slices.Sort(out)
	return out
}
