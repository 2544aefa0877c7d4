package scanner

import (
	"regexp"
	"strings"
)

// A #lesson block is the agent's own report of a mistake:
//
//	#lesson
//	tool: Bash
//	trigger: pytest -s tests/
//	problem: pytest -s hangs when a test reads stdin
//	solution: drop -s, or run pytest -s < /dev/null
//	tags: lang:python, tool:pytest
//	#/lesson
//
// A line that starts with a lowercase key and a colon starts a value;
// any other line continues the value before it.

// tagBlock is one parsed #lesson block.
type tagBlock struct {
	Tool     string
	Trigger  string
	Problem  string
	Solution string
	Tags     []string
	Scope    string
}

var (
	tagOpen  = regexp.MustCompile(`(?m)#lesson\b`)
	tagKey   = regexp.MustCompile(`^([a-z][a-z_]*)\s*:\s?(.*)$`)
	tagAlias = map[string]string{"mistake": "problem", "fix": "solution"}
)

// parseTags returns the well-formed blocks in an agent's text, how many
// were malformed (unclosed, or without a problem or a solution), and how
// many were templates (the protocol's own example, with placeholder values).
func parseTags(text string) (blocks []tagBlock, malformed, templates int) {
	if !strings.Contains(text, "#lesson") {
		return nil, 0, 0
	}
	for _, loc := range tagOpen.FindAllStringIndex(text, -1) {
		body := text[loc[1]:]
		if i := strings.Index(body, "#lesson"); i >= 0 {
			body = body[:i] // the next block starts before this one closes
		}
		end := strings.Index(body, "#/lesson")
		if end < 0 {
			malformed++
			continue
		}
		b, ok := parseTagBody(body[:end])
		switch {
		case !ok:
			malformed++
		case isPlaceholder(b.Problem) || isPlaceholder(b.Solution):
			templates++
		default:
			blocks = append(blocks, b)
		}
	}
	return blocks, malformed, templates
}

func parseTagBody(body string) (tagBlock, bool) {
	vals := map[string]*strings.Builder{}
	var cur *strings.Builder
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if m := tagKey.FindStringSubmatch(line); m != nil {
			key := m[1]
			if a, ok := tagAlias[key]; ok {
				key = a
			}
			cur = &strings.Builder{}
			cur.WriteString(m[2])
			if _, seen := vals[key]; !seen {
				vals[key] = cur
			}
			continue
		}
		if cur != nil && strings.TrimSpace(line) != "" {
			if cur.Len() > 0 {
				cur.WriteByte('\n')
			}
			cur.WriteString(strings.TrimSpace(line))
		}
	}
	get := func(k string) string {
		if v, ok := vals[k]; ok {
			return strings.TrimSpace(v.String())
		}
		return ""
	}
	b := tagBlock{Tool: get("tool"), Trigger: get("trigger"), Problem: get("problem"), Solution: get("solution"), Scope: strings.ToLower(get("scope"))}
	for _, t := range strings.Split(get("tags"), ",") {
		if t = strings.TrimSpace(t); t != "" {
			b.Tags = append(b.Tags, t)
		}
	}
	return b, b.Problem != "" && b.Solution != ""
}

// isPlaceholder reports whether a value is a template slot such as
// "<what went wrong>", "{solution}" or "[describe the fix]".
func isPlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) < 2 {
		return false
	}
	open, close := v[0], v[len(v)-1]
	return (open == '<' && close == '>') || (open == '{' && close == '}') || (open == '[' && close == ']') ||
		v == "..." || v == "…"
}
