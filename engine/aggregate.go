package engine

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// Aggregate is one tool's lessons joined into one text: what `lessons
// build` makes for a tool (tag tool:X) with at least aggregateMinLessons
// lessons, and what the hook injects instead of them when
// injectAggregates is set.
type Aggregate struct {
	Tool    string // the X of tool:X
	Text    string // a skill: front matter naming the command patterns, then the lessons
	Members []int  // indices of its lessons in the manifest
}

// AggregateSlug is the session claim of a tool's aggregate.
func AggregateSlug(tool string) string { return "aggregate-" + tool }

// maxAggregateBytes leaves an aggregate out when it would not fit one
// injection: its lessons are then injected one by one.
const maxAggregateBytes = maxContextBytes - 1000

// ToolTag is the tool a lesson's tool:X tag names, lower case, or "".
func ToolTag(tags []string) string {
	for _, t := range tags {
		if v, ok := strings.CutPrefix(t, "tool:"); ok && v != "" {
			return strings.ToLower(v)
		}
	}
	return ""
}

// SkillText renders lessons about one tool as a skill (SKILL.md): front
// matter with its name, a description saying when to read it, and the
// command and path patterns of its lessons, then each lesson, the most
// important first.
func SkillText(tool string, ls []*lessons.Lesson) string {
	ls = slices.Clone(ls)
	slices.SortStableFunc(ls, func(a, b *lessons.Lesson) int {
		return cmp.Or(cmp.Compare(b.EffectivePriority(), a.EffectivePriority()), cmp.Compare(a.Slug, b.Slug))
	})
	var commands, paths []string
	for _, l := range ls {
		commands = appendNew(commands, l.Triggers.Commands...)
		paths = appendNew(paths, l.Triggers.Paths...)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: lessons-%s\ndescription: %s\n", tool, yamlQuote(fmt.Sprintf(
		"%d lessons learned from past mistakes with %s. Read before using %s: running its commands or editing the files it reads.",
		len(ls), tool, tool)))
	yamlList(&b, "commands", commands)
	yamlList(&b, "paths", paths)
	fmt.Fprintf(&b, "---\n# Lessons for %s\n", tool)
	for _, l := range ls {
		b.WriteString("\n" + l.Text() + "\n")
		if l.Block {
			fmt.Fprintf(&b, "Refused by the lessons hook: %s\n", l.Reason("…"))
		}
	}
	return b.String()
}

func appendNew(list []string, items ...string) []string {
	for _, s := range items {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

func yamlList(b *strings.Builder, key string, items []string) {
	if len(items) == 0 {
		return
	}
	b.WriteString(key + ":\n")
	for _, s := range items {
		b.WriteString("  - " + yamlQuote(s) + "\n")
	}
}

// yamlQuote quotes s as a YAML double-quoted scalar, which JSON's string
// syntax is.
func yamlQuote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// aggregates joins the lessons of every tool tag with at least min of
// them; ls[i] is the manifest's lesson i.
func aggregates(ls []*lessons.Lesson, min int) ([]Aggregate, []error) {
	if min <= 0 {
		return nil, nil
	}
	byTool := map[string][]int{}
	for i, l := range ls {
		if len(l.Triggers.Errors) > 0 {
			continue // it comes after a failure, not with its tool's lessons
		}
		if tool := ToolTag(l.Tags); tool != "" {
			byTool[tool] = append(byTool[tool], i)
		}
	}
	var out []Aggregate
	var warnings []error
	for _, tool := range slices.Sorted(maps.Keys(byTool)) {
		idx := byTool[tool]
		if len(idx) < min {
			continue
		}
		members := make([]*lessons.Lesson, len(idx))
		for j, i := range idx {
			members[j] = ls[i]
		}
		text := strings.TrimRight(SkillText(tool, members), "\n")
		if len(text) > maxAggregateBytes {
			warnings = append(warnings, fmt.Errorf("tool:%s: its %d lessons are %d bytes together, more than one injection holds: not aggregated",
				tool, len(idx), len(text)))
			continue
		}
		out = append(out, Aggregate{Tool: tool, Text: text, Members: idx})
	}
	return out, warnings
}

func encodeAggregates(e *encoder, aggs []Aggregate) {
	e.int(len(aggs))
	for _, a := range aggs {
		e.str(a.Tool)
		e.str(a.Text)
		encodeIndexList(e, a.Members)
	}
}

// Aggregates decodes the manifest's per-tool aggregates.
func (m *Manifest) Aggregates() ([]Aggregate, error) {
	d := decoder{b: m.data, off: m.sec[secAggregates]}
	n := d.count()
	out := make([]Aggregate, 0, n)
	for ; n > 0 && d.err == nil; n-- {
		a := Aggregate{Tool: d.str(), Text: d.str()}
		a.Members = indexList(&d, nil)
		out = append(out, a)
	}
	if d.err != nil {
		return nil, errCorrupt
	}
	return out, nil
}

// withAggregates replaces, among ranked candidates, the lessons of a
// tool that has an aggregate by the aggregate, at the rank of its best
// lesson. It returns the members each aggregate stands for, to claim
// with it.
func withAggregates(cs []Candidate, aggs []Aggregate) ([]Candidate, map[string][]string) {
	if len(aggs) == 0 {
		return cs, nil
	}
	of := map[int]*Aggregate{}
	for i := range aggs {
		for _, idx := range aggs[i].Members {
			of[idx] = &aggs[i]
		}
	}
	var out []Candidate
	members := map[string][]string{}
	for _, c := range cs {
		a := of[c.Index]
		if a == nil {
			out = append(out, c)
			continue
		}
		slug := AggregateSlug(a.Tool)
		if _, done := members[slug]; !done {
			agg := c
			agg.Slug, agg.ID, agg.Text, agg.Summary = slug, "", a.Text, "Lessons for "+a.Tool
			agg.Trigger = "aggregate"
			out = append(out, agg)
		}
		members[slug] = append(members[slug], c.Slug)
	}
	return out, members
}
