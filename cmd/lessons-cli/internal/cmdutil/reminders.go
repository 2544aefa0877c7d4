package cmdutil

import (
	"os"
	"path/filepath"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// MaxReminders bounds the reminders one manifest holds, the most
// important first (scanner.ReviewOrder): as many lessons on an error as
// the hook's outcome benchmark (engine BenchmarkHookOutcomeErrors)
// carries.
const MaxReminders = 100

// ReminderPrefix starts the slug and id of a reminder; the candidate's id
// follows.
const ReminderPrefix = "reminder-"

// Reminders reads the reminders of the candidate store in d.State
// (scanner.Candidate.Reminder): the candidates the hook says after their
// error comes back, before anyone reviews them, in the project they were
// seen in (one seen in two or more projects, everywhere). A candidate
// rejected, promoted or folded stops being one at the next build.
func Reminders(d scope.Dirs) *scope.Reminders {
	st := scanner.OpenStore(d.State)
	return &scope.Reminders{Dir: st.Dir(), Of: func(project string, cfg lessons.Config) []scope.Resolved {
		cs, err := st.List(scanner.ListOptions{})
		if err != nil {
			return nil // no store yet, or unreadable: the lessons people wrote still build
		}
		var out []scope.Resolved
		for _, c := range cs {
			said, ok := c.AsReminder(cfg)
			if !ok || !seenIn(c, project) {
				continue
			}
			l := scanner.ToLesson(said)
			l.ID, l.Slug, l.NeedsReview = ReminderPrefix+c.ID, ReminderPrefix+c.ID, false
			out = append(out, scope.Resolved{Lesson: l, Path: filepath.Join(st.Dir(), c.ID+".json")})
			if len(out) == MaxReminders {
				break
			}
		}
		return out
	}}
}

// seenIn reports whether a candidate's reminder applies in project: it
// was seen there (or below it), in another worktree of the same
// repository (lessons.ProjectOf), or in more than one project.
func seenIn(c scanner.Candidate, project string) bool {
	if len(c.Projects) != 1 {
		return true
	}
	p := filepath.Clean(c.Projects[0])
	for _, dir := range []string{project, lessons.ProjectOf(project)} {
		if dir != "" && (p == dir || strings.HasPrefix(p, dir+string(os.PathSeparator))) {
			return true
		}
	}
	return false
}
