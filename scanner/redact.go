package scanner

import (
	"regexp"
	"slices"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// Redaction replaces secrets with a marker before anything a scan finds
// is stored or shown (package engine/secret: gitleaks' rules and ours for
// secrets passed as arguments). Patterns err on the side of hiding too
// much.

// Redacted replaces a secret.
const Redacted = "[REDACTED]"

// Redact returns s with every secret it recognizes replaced by Redacted.
func Redact(s string) string { return secret.Redact(s, Redacted) }

// redactPattern redacts a regular expression: the marker is quoted so
// the pattern still compiles and means "the redacted text".
func redactPattern(p string) string {
	return secret.Redact(p, regexp.QuoteMeta(Redacted))
}

// redactLesson redacts every text of a lesson made from a candidate, so
// that a candidate stored before its secrets were recognized still
// writes, names and commits none. The summary, which names the lesson
// and makes its slug, is rewritten rather than marked. Slices are copied first: the lesson
// shares them with its candidate.
func redactLesson(l *lessons.Lesson) {
	l.Tags, l.Triggers, l.Examples = slices.Clone(l.Tags), cloneTrigger(l.Triggers), lessons.Examples{
		Match: slices.Clone(l.Examples.Match), NoMatch: slices.Clone(l.Examples.NoMatch)}
	l.Summary, l.Problem, l.Solution = secret.Sentence(l.Summary), Redact(l.Problem), Redact(l.Solution)
	l.Tags = redactTags(l.Tags)
	for i, k := range l.Triggers.Keywords {
		l.Triggers.Keywords[i] = Redact(k)
	}
	for i, p := range l.Triggers.Paths {
		l.Triggers.Paths[i] = secret.Redact(p, "REDACTED") // a glob: no brackets
	}
	for _, ps := range []*[]string{&l.Triggers.Commands, &l.Triggers.Unless, &l.Triggers.Content} {
		for i, p := range *ps {
			(*ps)[i] = redactPattern(p)
		}
	}
	for _, cs := range []*[]lessons.ToolCall{&l.Examples.Match, &l.Examples.NoMatch} {
		for i := range *cs {
			c := &(*cs)[i]
			c.Command, c.Path, c.Content = Redact(c.Command), Redact(c.Path), Redact(c.Content)
		}
	}
}

// redactTags drops the tags that hold a secret: a tag is a short
// "name:value" label, and one with a marker in it would not be valid.
func redactTags(tags []string) []string {
	return slices.DeleteFunc(tags, func(t string) bool { return Redact(t) != t })
}

func cloneTrigger(t lessons.Trigger) lessons.Trigger {
	t.Tools, t.Commands, t.Unless = slices.Clone(t.Tools), slices.Clone(t.Commands), slices.Clone(t.Unless)
	t.Paths, t.Content, t.Keywords = slices.Clone(t.Paths), slices.Clone(t.Content), slices.Clone(t.Keywords)
	return t
}
