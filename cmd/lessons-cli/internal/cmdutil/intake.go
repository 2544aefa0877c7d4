package cmdutil

import (
	"errors"
	"strings"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// The intake rules every new lesson passes, whether a person adds it or a
// candidate is promoted: it is valid as the file it will become, its
// examples behave, and it does not repeat a lesson that exists.

// CompleteLesson fills what the CLI computes: id, slug, timestamps and
// content hash.
func CompleteLesson(l *lessons.Lesson, now time.Time) {
	now = now.UTC().Truncate(time.Second)
	if l.ID == "" {
		l.ID = repo.NewID(now)
	}
	if l.Slug == "" {
		l.Slug = repo.NewSlug(l.Summary)
	}
	if l.CreatedAt == nil {
		l.CreatedAt = &now
	}
	l.UpdatedAt = &now
	l.ContentHash = repo.ContentHash(l)
}

// CheckLesson validates the lesson as the file it will become: schema,
// then lessons.Validate (lengths, placeholders, a summary ending in "...",
// regexes), then its examples through the hook's matcher. where names a
// field in messages (a flag, a file and field). The error lists every
// problem, with a hint.
func CheckLesson(l *lessons.Lesson, where func(field string) string) (warnings []string, err error) {
	data, err := repo.MarshalLesson(l)
	if err != nil {
		return nil, err
	}
	describe := func(p *repo.FileError) string {
		if p.Field == "" {
			return p.Msg
		}
		return where(p.Field) + ": " + p.Msg
	}
	_, ps := repo.CheckLesson(l.Slug+".yaml", data)
	for _, p := range ps.Warnings() {
		warnings = append(warnings, describe(p))
	}
	var msgs []string
	for _, p := range ps.Errors() {
		msgs = append(msgs, describe(p))
	}
	if len(msgs) == 0 {
		_, fails := CheckExamples(l)
		for _, f := range fails {
			msgs = append(msgs, where(f.Field)+": "+f.Problem())
		}
	}
	if len(msgs) > 0 {
		return warnings, WithHint(errors.New("the lesson is not valid, nothing was written:\n  "+strings.Join(msgs, "\n  ")),
			"fix the values above; regexes are ECMAScript (lookahead allowed)")
	}
	return warnings, nil
}

// CheckNew refuses a lesson that repeats one that exists: the same
// content hash, a Jaccard similarity of NearDuplicateThreshold or more,
// or, for an active lesson of any scope, the same mistake caught
// (SameMistake), unless forced.
func CheckNew(l *lessons.Lesson, m scope.Merged, force bool) error {
	if force {
		return nil
	}
	all := m.Active
	for _, e := range m.Excluded {
		all = append(all, e.Resolved)
	}
	var near *scope.Resolved
	best := 0.0
	for i := range all {
		r := &all[i]
		if repo.ContentHash(&r.Lesson) == l.ContentHash {
			return Hintf("lessons show "+r.Slug+"; --force adds it anyway",
				"the lesson says exactly what %s (%s, %s) says; nothing was written", r.Slug, r.Scope, r.Path)
		}
		if s := lessons.Similarity(&r.Lesson, l); s >= lessons.NearDuplicateThreshold && s > best {
			near, best = r, s
		}
	}
	if near != nil {
		return Hintf("lessons show "+near.Slug+", then lessons edit "+near.Slug+" to improve it; --force adds the new one anyway",
			"the lesson shares %.0f%% of its words with %s (%s, %s): %q; nothing was written", best*100, near.Slug, near.Scope, near.Path, near.Summary)
	}
	for i := range m.Active {
		r := &m.Active[i]
		if ex, ok := SameMistake(&r.Lesson, l); ok {
			return Hintf("lessons show "+r.Slug+", then lessons edit "+r.Slug+" to improve it; --force adds the new one anyway",
				"the lesson catches the same mistake as %s (%s, %s): %q, whose trigger fires on your example %q and yours on its; both would inject together; nothing was written",
				r.Slug, r.Scope, r.Path, r.Summary, ex)
		}
	}
	return nil
}
