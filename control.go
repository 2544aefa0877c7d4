package lessons

import (
	"fmt"
	"unicode/utf8"
)

// ControlProblems reports every text field of l that holds a character
// that could drive a terminal or hide text: C0 controls other than
// newline and tab, DEL, C1 controls, bidirectional overrides, or bytes
// that are not UTF-8. Pack lessons come from other people and must hold
// none; each problem names the field and shows the character escaped.
func ControlProblems(l *Lesson) []Problem {
	var out []Problem
	check := func(field, s string) {
		if r, ok := controlIn(s); ok {
			out = append(out, Problem{Field: field, Message: fmt.Sprintf(
				"holds the control character %s, which could drive a terminal: remove it (write the text it stands for instead)", r)})
		}
	}
	list := func(field string, ss []string) {
		for i, s := range ss {
			check(fmt.Sprintf("%s[%d]", field, i), s)
		}
	}
	calls := func(field string, cs []ToolCall) {
		for i, c := range cs {
			f := fmt.Sprintf("%s[%d]", field, i)
			check(f+".tool", c.Tool)
			check(f+".command", c.Command)
			check(f+".path", c.Path)
			check(f+".content", c.Content)
		}
	}
	check("id", l.ID)
	check("slug", l.Slug)
	check("summary", l.Summary)
	check("problem", l.Problem)
	check("solution", l.Solution)
	check("injection", l.Injection)
	check("blockReason", l.BlockReason)
	check("contentHash", l.ContentHash)
	list("tags", l.Tags)
	list("addresses", l.Addresses)
	list("triggers.tools", l.Triggers.Tools)
	list("triggers.commands", l.Triggers.Commands)
	list("triggers.unless", l.Triggers.Unless)
	list("triggers.paths", l.Triggers.Paths)
	list("triggers.content", l.Triggers.Content)
	list("triggers.keywords", l.Triggers.Keywords)
	calls("examples.match", l.Examples.Match)
	calls("examples.noMatch", l.Examples.NoMatch)
	if l.Source != nil {
		check("source.agent", l.Source.Agent)
	}
	return out
}

// controlIn returns the first control character of s, escaped (\x1b,
// \u009b), and whether there is one.
func controlIn(s string) (string, bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return fmt.Sprintf(`\x%02x (not UTF-8)`, s[i]), true
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf(`\x%02x`, r), true
		case (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return fmt.Sprintf(`\u%04x`, r), true
		}
		i += size
	}
	return "", false
}
