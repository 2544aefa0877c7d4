package engine

import (
	"fmt"
	"strings"
)

// injectionText assembles what the agent reads: a first line naming what
// the lessons are for and how many, each lesson, and an HTML comment
// listing the injected and dropped slugs for whoever debugs it.
func injectionText(about string, sel Selection) string {
	var b strings.Builder
	n := len(sel.Injected)
	fmt.Fprintf(&b, "%d %s %s\n", n, plural(n, "lesson", "lessons"), about)
	slugs := make([]string, 0, n)
	for _, p := range sel.Injected {
		b.WriteByte('\n')
		if p.Short {
			b.WriteString(p.Entry.Short())
		} else {
			b.WriteString(p.Text)
		}
		b.WriteByte('\n')
		slugs = append(slugs, p.Slug)
	}
	fmt.Fprintf(&b, "\n<!-- lessons injected: %s", strings.Join(slugs, ", "))
	if len(sel.Dropped) > 0 {
		fmt.Fprintf(&b, "; dropped: %s", strings.Join(sel.Dropped, ", "))
	}
	b.WriteString(" -->")
	return b.String()
}

// describeCall names a call for the first line, e.g. "for Bash: git push".
func describeCall(c Call) string {
	const max = 100
	what := ""
	switch {
	case c.Command != "":
		what = strings.Join(strings.Fields(c.Command), " ")
	case len(c.Paths) > 0:
		what = c.Paths[0]
		if len(c.Paths) > 1 {
			what += fmt.Sprintf(" and %d more", len(c.Paths)-1)
		}
	}
	if r := []rune(what); len(r) > max {
		what = string(r[:max-1]) + "…"
	}
	if what == "" {
		return "for this " + c.Tool + " call"
	}
	return "for this " + c.Tool + " call: " + what
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
