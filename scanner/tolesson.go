package scanner

import (
	"github.com/lessons-dev/lessons"
)

// ToLesson returns the lesson a candidate would become: its text,
// trigger, examples, scores and source. Id, slug and dates are left to the
// store that writes it; heuristic candidates keep NeedsReview. Its text
// is redacted again, in case the candidate was stored by an older scan.
func ToLesson(c Candidate) lessons.Lesson {
	l := lessons.Lesson{
		Summary:     c.Summary,
		Problem:     c.Problem,
		Solution:    c.Solution,
		Triggers:    c.Triggers,
		Examples:    c.Examples,
		Priority:    c.Priority,
		Confidence:  c.Confidence,
		NeedsReview: c.NeedsReview,
		Tags:        append([]string(nil), c.Tags...),
		Source:      &lessons.Source{Sessions: len(c.Sessions), Occurrences: c.Occurrences},
	}
	if len(c.Agents) == 1 {
		l.Source.Agent = c.Agents[0]
	}
	redactLesson(&l)
	return l
}

// DefaultScope is where a promoted candidate goes unless the user says:
// the global store when it was seen in two or more projects, when a tag
// asked for it, or when it has no project; otherwise the project it was
// seen in, returned as project.
func DefaultScope(c Candidate) (scope lessons.Scope, project string) {
	if c.Scope == "global" || len(c.Projects) != 1 {
		return lessons.ScopeGlobal, ""
	}
	return lessons.ScopeProject, c.Projects[0]
}
