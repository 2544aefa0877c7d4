package cmdutil

import (
	"errors"
	"fmt"
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

// CheckNew refuses a lesson that repeats one that exists, unless forced:
// the same content hash, or, for an active lesson of any scope, the same
// mistake, which both fire on the same calls (SameMistake) and say the
// same thing (SaysSame). It returns notes, for the person adding it, on
// what it does not repeat but runs beside: a lesson that fires on the
// same calls, and so injects with it, and how to put one first; a lesson
// whose words it mostly shares, on other calls.
func CheckNew(l *lessons.Lesson, m scope.Merged, force bool) (notes []string, err error) {
	if force {
		return nil, nil
	}
	all := m.Active
	for _, e := range m.Excluded {
		all = append(all, e.Resolved)
	}
	for i := range all {
		r := &all[i]
		if repo.ContentHash(&r.Lesson) == l.ContentHash {
			return nil, Hintf("lessons show "+r.Slug+"; --force adds it anyway",
				"the lesson says exactly what %s (%s, %s) says; nothing was written", r.Slug, r.Scope, r.Path)
		}
	}
	sameCalls := map[string]bool{}
	for i := range m.Active {
		r := &m.Active[i]
		ex, ok := SameMistake(&r.Lesson, l)
		if !ok {
			continue
		}
		sameCalls[r.Slug] = true
		if share := TextOverlap(&r.Lesson, l); share >= SaysSameThreshold {
			return nil, Hintf("lessons show "+r.Slug+", then lessons edit "+r.Slug+" to improve it; --force adds the new one anyway",
				"the lesson repeats %s (%s, %s): %q: its trigger fires on your example %q and yours on its, and %.0f%% of the words of the shorter one are in the other; both would inject together; nothing was written",
				r.Slug, r.Scope, r.Path, r.Summary, ex, share*100)
		}
		notes = append(notes, sameCallsNote(l, r, ex))
	}
	for i := range all {
		r := &all[i]
		if s := lessons.Similarity(&r.Lesson, l); s >= lessons.NearDuplicateThreshold && !sameCalls[r.Slug] {
			notes = append(notes, fmt.Sprintf("%s (%s, %s) says much the same (%.0f%% of its words), on other calls: if they are one lesson, widen its trigger instead (lessons edit %s)",
				r.Slug, r.Scope, r.Path, s*100, r.Slug))
		}
	}
	return notes, nil
}

// sameCallsNote says that l and r fire on the same calls, which one the
// hook puts first (its stack bonus aside), and how to change that by
// editing l, the lesson being added.
func sameCallsNote(l *lessons.Lesson, r *scope.Resolved, example string) string {
	pl, pr, cl, cr := l.EffectivePriority(), r.EffectivePriority(), l.EffectiveConfidence(), r.EffectiveConfidence()
	first, change := r.Slug, fmt.Sprintf("to put this one first, raise its priority above %d", pr)
	if pl > pr || pl == pr && (cl > cr || cl == cr && l.Slug < r.Slug) { // the hook's order
		first, change = l.Slug, fmt.Sprintf("to put %s first, lower this one's priority below %d", r.Slug, pr)
	}
	return fmt.Sprintf("%s (%s, %s) fires on the same calls (%q): both inject together, %s first (priority %d, this one %d); %s (lessons edit %s)",
		r.Slug, r.Scope, r.Path, example, first, pr, pl, change, l.Slug)
}
