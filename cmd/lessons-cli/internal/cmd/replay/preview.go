package replay

import (
	"context"
	"errors"
	"fmt"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// The replay add and promote run on a new lesson looks at the last week
// of logs, and stops after PreviewTimeout so that adding a lesson stays
// quick; a replay cut short says so.
const (
	PreviewWindow  = 7 * 24 * time.Hour
	PreviewTimeout = 2 * time.Second
)

// Preview replays the lesson l alone, with cfg, over the user's logs of
// the last week (cfg's scanPaths, else every agent's), and returns a
// warning with figures when it would have fired more often before calls
// that went fine than before failures; "" when it would not, or there
// are no logs.
func Preview(ctx context.Context, l lessons.Lesson, cfg lessons.Config, getenv func(string) string) string {
	ctx, cancel := context.WithTimeout(ctx, PreviewTimeout)
	defer cancel()
	rep, err := Run(ctx, Job{
		Merged: scope.Merged{Config: cfg, Active: []scope.Resolved{{Lesson: l, Scope: lessons.ScopeGlobal, AllowBlock: true}}},
		Read:   scanner.ReadOptions{Paths: Paths(nil, cfg, getenv), Since: PreviewWindow},
	})
	partial := errors.Is(err, context.DeadlineExceeded)
	if rep == nil || (err != nil && !partial) {
		return ""
	}
	return previewWarning(rep, l.Slug, partial)
}

// previewWarning is the warning for the lesson slug's figures in rep, or
// "" when it fired no more often before fine calls than before failures.
func previewWarning(rep *Report, slug string, partial bool) string {
	var lr *LessonReport
	for i := range rep.Lessons {
		if rep.Lessons[i].Slug == slug {
			lr = &rep.Lessons[i]
		}
	}
	if lr == nil || lr.FiresBeforeFine <= lr.FiresBeforeFailed {
		return ""
	}
	what := fmt.Sprintf("would have fired %d %s", lr.Fires, plural(lr.Fires, "time", "times"))
	if n := lr.Refused + lr.Asked; n > 0 {
		what = fmt.Sprintf("would have refused %d %s", n, plural(n, "call", "calls"))
	}
	w := fmt.Sprintf("%s %s in the last 7 days, %d of them before a failure and %d before a call that went fine "+
		"(its trigger matched %d of %d calls in %d sessions); see lessons replay %s",
		slug, what, lr.FiresBeforeFailed, lr.FiresBeforeFine, lr.Matches, rep.Calls, rep.Sessions, slug)
	if partial {
		w += fmt.Sprintf(" (the replay stopped after %v: figures for part of the week)", PreviewTimeout)
	}
	return w
}
