package lessons

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Problem is one thing wrong with a lesson. Warnings do not stop a lesson
// from loading; errors do.
type Problem struct {
	Field   string // dotted path, e.g. "triggers.commands[1]"
	Message string
	Warning bool
}

func (p Problem) Error() string { return p.Field + ": " + p.Message }

// Validation patterns are compiled on first use, not at init: the hook's
// binary links this package and never validates.
var (
	placeholder = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<[a-z][a-z0-9]*(_[a-z0-9]+)+>|\{\{[^}]*\}\}|<(description|placeholder|problem|solution|summary|fix|tool|command|trigger)>`)
	})
	tagPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[a-z][a-z0-9-]*:[a-z0-9][a-z0-9._+/#-]*$`)
	})
)

// TagCategories are the categories a tag is expected to use.
var TagCategories = []string{"lang", "tool", "topic", "env", "severity", "platform", "scope"}

// Validate reports what a schema cannot: regexes that do not compile,
// template placeholders, a summary ending in "...", block fields that
// come without each other, malformed tags and unknown tool names.
func Validate(l *Lesson) []Problem {
	var ps []Problem
	add := func(field, format string, args ...any) {
		ps = append(ps, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	warn := func(field, format string, args ...any) {
		ps = append(ps, Problem{Field: field, Message: fmt.Sprintf(format, args...), Warning: true})
	}
	if strings.ContainsAny(l.Summary, "\r\n") {
		add("summary", "must be one line")
	}
	// "…" is how a summary cut from a longer sentence ends; "..." is a
	// placeholder for text nobody wrote.
	if s := strings.TrimSpace(l.Summary); strings.HasSuffix(s, "...") {
		add("summary", "must not end in \"...\": say the whole thing")
	}
	for _, f := range []struct{ name, text string }{
		{"summary", l.Summary}, {"problem", l.Problem}, {"solution", l.Solution}, {"injection", l.Injection},
	} {
		if !strings.ContainsAny(f.text, "<{") {
			continue // the common case, without running the regex
		}
		if m := placeholder().FindString(f.text); m != "" {
			add(f.name, "contains the template placeholder %s: write the real text", m)
		}
	}
	if l.Block && strings.TrimSpace(l.BlockReason) == "" {
		add("blockReason", "is required when block is true")
	}
	if !l.Block && l.BlockReason != "" {
		add("block", "blockReason is set but block is not true")
	}
	if l.Decision != "" && !l.Block {
		add("decision", "only applies to a blocking lesson (block: true)")
	}
	if l.Decision != "" && l.Decision != DecisionDeny && l.Decision != DecisionAsk {
		add("decision", "must be deny or ask, not %q", l.Decision)
	}
	if l.Kind != "" && l.Kind != KindPitfall && l.Kind != KindHazard {
		add("kind", "must be pitfall or hazard, not %q", l.Kind)
	}
	for _, k := range []struct {
		kind string
		list []string
	}{{"commands", l.Triggers.Commands}, {"unless", l.Triggers.Unless}, {"content", l.Triggers.Content}, {"errors", l.Triggers.Errors}} {
		for i, src := range k.list {
			if err := CheckPattern(src); err != nil {
				add(fmt.Sprintf("triggers.%s[%d]", k.kind, i), "invalid regex %q: %v", src, err)
			}
		}
	}
	for i, src := range l.Addresses {
		if err := CheckPattern(src); err != nil {
			add(fmt.Sprintf("addresses[%d]", i), "invalid regex %q: %v", src, err)
		}
	}
	if len(l.Addresses) > 0 && len(l.Triggers.Errors) > 0 {
		warn("addresses", "a lesson on an error (triggers.errors) addresses the failure it matched; addresses is for lessons that fire before a call")
	}
	for i, g := range l.Triggers.Paths {
		if _, err := ExpandBraces(g); err != nil {
			add(fmt.Sprintf("triggers.paths[%d]", i), "glob %.60q: %v: split it into several globs", g, err)
		}
	}
	for i, t := range l.Triggers.Tools {
		if !KnownTool(t) {
			warn(fmt.Sprintf("triggers.tools[%d]", i), "no agent has a tool named %q (known: %s, or mcp__ names)", t, strings.Join(CanonicalTools, ", "))
		}
	}
	if !l.Triggers.Matchable() && !l.Triggers.SessionStart && len(l.Triggers.Keywords) == 0 && len(l.Triggers.Errors) == 0 {
		add("triggers", "needs at least one of tools, commands, paths, content, errors, keywords or sessionStart")
	}
	for i, tag := range l.Tags {
		if !tagPattern().MatchString(tag) {
			add(fmt.Sprintf("tags[%d]", i), "tag %q must look like category:value (categories: %s)", tag, strings.Join(TagCategories, ", "))
		}
	}
	if l.Triggers.Foreground && !slices.Contains(l.Triggers.ImpliedTools(), "Bash") {
		add("triggers.foreground", "only a shell call runs in the foreground or the background: the lesson's triggers must match Bash")
	}
	if len(l.Triggers.Errors) > 0 {
		// It comes after a failed call: nothing before a call reads it.
		if l.Block {
			warn("block", "a lesson on an error (triggers.errors) comes after the call and cannot refuse it")
		}
		if l.Triggers.SessionStart || len(l.Triggers.Keywords) > 0 {
			warn("triggers", "a lesson on an error (triggers.errors) comes only after a failed call, not at session start or a prompt")
		}
	}
	if (l.Triggers.Matchable() || len(l.Triggers.Errors) > 0) && len(l.Examples.Match) == 0 {
		warn("examples.match", "no example a trigger should match: add one so `lessons test` can check it")
	}
	return ps
}

// Errors returns only the problems that are not warnings.
func Errors(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}
