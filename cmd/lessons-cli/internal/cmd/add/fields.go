package add

import (
	"encoding/json"
	"fmt"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
)

// fromFlags builds the lesson from the flags, prompting for the summary,
// problem, solution and a trigger when they are missing and a person can
// answer.
func (opts *Options) fromFlags() (*lessons.Lesson, error) {
	v := &opts.Fields
	if opts.IO.CanPrompt() {
		if err := opts.prompt(); err != nil {
			return nil, err
		}
	}
	var missing []string
	for _, f := range []struct{ flag, value string }{{"--summary", v.Summary}, {"--problem", v.Problem}, {"--solution", v.Solution}} {
		if strings.TrimSpace(f.value) == "" {
			missing = append(missing, f.flag)
		}
	}
	if len(missing) > 0 {
		return nil, cmdutil.FlagErrorf("missing %s (or give --file, or run in a terminal to be asked)", strings.Join(missing, ", "))
	}
	match, err := calls("--match", v.Match)
	if err != nil {
		return nil, err
	}
	noMatch, err := calls("--no-match", v.NoMatch)
	if err != nil {
		return nil, err
	}
	trig := lessons.Trigger{
		Tools: v.Tools, Commands: v.Commands, Unless: v.Unless, Paths: v.Paths,
		Content: v.Content, Errors: v.Errors, Keywords: v.Keywords, SessionStart: v.SessionStart,
	}
	match, noMatch = withError(v.ExampleError, trig.ImpliedTools(), match, noMatch)
	return &lessons.Lesson{
		Summary: strings.TrimSpace(v.Summary), Problem: strings.TrimSpace(v.Problem),
		Solution: strings.TrimSpace(v.Solution), Injection: v.Injection,
		Block: v.Block, BlockReason: v.BlockReason, Decision: lessons.Decision(v.Decision),
		Triggers: trig,
		Examples: lessons.Examples{Match: match, NoMatch: noMatch},
		Priority: v.Priority, Confidence: v.Confidence, Tags: v.Tags,
	}, nil
}

// withError gives --example-error's text to each example without an
// error, or, with no match example, makes one of it, a call of the
// first of the lesson's tools.
func withError(text string, tools []string, match, noMatch []lessons.ToolCall) ([]lessons.ToolCall, []lessons.ToolCall) {
	if strings.TrimSpace(text) == "" {
		return match, noMatch
	}
	if len(match) == 0 {
		tool := "Bash"
		if len(tools) > 0 && !strings.ContainsAny(tools[0], "*?[") {
			tool = tools[0]
		}
		match = []lessons.ToolCall{{Tool: tool, Error: text}}
	}
	for _, set := range [][]lessons.ToolCall{match, noMatch} {
		for i := range set {
			if set[i].Error == "" {
				set[i].Error = text
			}
		}
	}
	return match, noMatch
}

// calls parses example flags: a Bash command, or a JSON object.
func calls(flag string, values []string) ([]lessons.ToolCall, error) {
	var out []lessons.ToolCall
	for _, s := range values {
		c := lessons.ToolCall{Tool: "Bash", Command: s}
		if strings.HasPrefix(strings.TrimSpace(s), "{") {
			if err := json.Unmarshal([]byte(s), &c); err != nil {
				return nil, cmdutil.FlagErrorf("%s %s: %v", flag, s, err)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// prompt asks for the fields a lesson cannot do without.
func (opts *Options) prompt() error {
	v := &opts.Fields
	p := cmdutil.NewPrompter(opts.IO)
	long := func(n int) func(string) error {
		return func(s string) error {
			if len([]rune(s)) < n {
				return fmt.Errorf("at least %d characters, please", n)
			}
			return nil
		}
	}
	for _, q := range []struct {
		value    *string
		question string
		check    func(string) error
	}{
		{&v.Summary, "Summary (one line saying the whole lesson)", long(20)},
		{&v.Problem, "Problem (what went wrong and why)", long(20)},
		{&v.Solution, "Solution (what to do instead)", long(20)},
	} {
		if *q.value != "" {
			continue
		}
		answer, err := p.Ask(q.question, q.check)
		if err != nil {
			return err
		}
		*q.value = answer
	}
	trig := lessons.Trigger{Tools: v.Tools, Commands: v.Commands, Paths: v.Paths, Content: v.Content, Keywords: v.Keywords, SessionStart: v.SessionStart}
	if !trig.Matchable() && len(trig.Keywords) == 0 && !trig.SessionStart && len(v.Errors) == 0 {
		re, err := p.Ask("Command regex that should bring the lesson up (e.g. \\bpytest\\b)", func(s string) error {
			if s == "" {
				return fmt.Errorf("a lesson needs a trigger (use flags for paths, content or tools)")
			}
			_, err := lessons.CompilePattern(s)
			return err
		})
		if err != nil {
			return err
		}
		v.Commands = []string{re}
	}
	if len(v.Commands) > 0 && len(v.Match) == 0 {
		example, err := p.Ask("A command it should match (empty to skip)", nil)
		if err != nil {
			return err
		}
		if example != "" {
			v.Match = []string{example}
		}
	}
	return nil
}
