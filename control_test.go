package lessons

import (
	"strings"
	"testing"
)

func TestControlProblems(t *testing.T) {
	clean := Lesson{
		ID: "01HX0000000000000000000001", Slug: "a-b", Summary: "Tabs\tand newlines\nare fine, ünïcode too",
		Triggers: Trigger{Commands: []string{`\x1b\[`}}, // an escape written as regex text is fine
		Examples: Examples{Match: []ToolCall{{Command: "printf '\\033[2K'"}}},
	}
	if ps := ControlProblems(&clean); len(ps) != 0 {
		t.Errorf("ControlProblems(clean) = %v, want none", ps)
	}
	for _, tc := range []struct {
		set         func(*Lesson)
		field, char string
	}{
		{func(l *Lesson) { l.Summary = "ok \x1b]52;c;ZXZpbA==\x07" }, "summary", `\x1b`},
		{func(l *Lesson) { l.Problem = "line\r\x1b[2Kerased" }, "problem", `\x0d`},
		{func(l *Lesson) { l.Solution = "c1 \u009b31m" }, "solution", `\u009b`},
		{func(l *Lesson) { l.BlockReason = "x\u202ey" }, "blockReason", `\u202e`},
		{func(l *Lesson) { l.Tags = []string{"tool:git", "x\x00"} }, "tags[1]", `\x00`},
		{func(l *Lesson) { l.Addresses = []string{"timed out\x1b[2J"} }, "addresses[0]", `\x1b`},
		{func(l *Lesson) { l.Examples.NoMatch = []ToolCall{{Tool: "Write", Content: "\x9b"}} }, "examples.noMatch[0].content", `\x9b`},
	} {
		l := clean
		tc.set(&l)
		ps := ControlProblems(&l)
		if len(ps) != 1 || ps[0].Field != tc.field || !strings.Contains(ps[0].Message, tc.char) {
			t.Errorf("ControlProblems = %v, want one on %s naming %s", ps, tc.field, tc.char)
		}
		for _, p := range ps {
			if strings.ContainsAny(p.Error(), "\x1b\r\x00\u009b\u202e") {
				t.Errorf("problem %q holds the raw character", p.Error())
			}
		}
	}
}
