package candidates

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// Dest says where a promoted candidate goes.
type Dest int

// Destinations: where the evidence points (scanner.DefaultScope), or the
// store the user named.
const (
	DestDefault Dest = iota
	DestProject
	DestGlobal
)

// Promoter turns candidates into lessons with the intake rules of
// `lessons add`. scan --promote, promote and review share it.
type Promoter struct {
	Dirs  scope.Dirs
	Store *scanner.Store
	// MergeAt merges the stores that apply to a directory, to find
	// lessons the new one would repeat.
	MergeAt func(dir string) scope.Merged
	// Cwd is the working directory: --project falls back to its project.
	Cwd string
	Now func() time.Time
	// Edit lets the user change the lesson's YAML before it is checked.
	Edit func(name string, data []byte) ([]byte, error)
	// Replay, when set, replays the new lesson over the last week's logs
	// and returns a warning when it would be noisy, or "".
	Replay func(lessons.Lesson, lessons.Config) string
	// Force writes a lesson that repeats one that exists.
	Force bool
}

// Promoted is one promotion, as promote prints it with --json.
type Promoted struct {
	Candidate string `json:"candidate"`
	ID        string `json:"id"`
	Slug      string `json:"slug"`
	Scope     string `json:"scope"`
	Path      string `json:"path"`
	// Warnings are problems that did not stop the promotion, such as a
	// confidence too low for the lesson to be injected.
	Warnings []string `json:"warnings,omitempty"`
}

// Promote writes candidate c as a lesson into dest (in the global store,
// as one commit) and marks it promoted. A person promoting a candidate
// has reviewed it, so the lesson does not need review. Nothing is written
// when the lesson breaks an intake rule or repeats an existing lesson.
func (p *Promoter) Promote(c scanner.Candidate, dest Dest, edit bool) (Promoted, error) {
	out := Promoted{Candidate: c.ID}
	if c.Status == scanner.StatusPromoted {
		return out, cmdutil.Hintf("lessons show "+c.LessonID, "candidate %s is already the lesson %s", c.ID, c.LessonID)
	}
	if c.Status == scanner.StatusDuplicate && !p.Force {
		return out, cmdutil.Hintf("lessons show "+c.LessonID+"; lessons promote "+c.ID+" --force adds it anyway",
			"candidate %s repeats the lesson %s, which already catches this mistake: %s", c.ID, c.LessonID, c.Summary)
	}
	t, dir, err := p.target(c, dest)
	if err != nil {
		return out, err
	}
	l := scanner.ToLesson(c)
	l.NeedsReview = false
	cmdutil.CompleteLesson(&l, p.Now())
	if edit {
		if l, err = p.edit(l); err != nil {
			return out, err
		}
	}
	where := func(field string) string { return "candidate " + c.ID + ": " + field }
	warnings, err := cmdutil.CheckLesson(&l, where)
	if err != nil {
		return out, cmdutil.WithHint(err, "lessons promote "+c.ID+" --edit to fix it, or lessons reject "+c.ID)
	}
	m := p.MergeAt(dir)
	notes, err := cmdutil.CheckNew(&l, m, p.Force)
	if err != nil {
		return out, fmt.Errorf("candidate %s: %w", c.ID, err)
	}
	warnings = append(warnings, notes...)
	if conf := l.EffectiveConfidence(); !m.Config.Admits(conf, l.AfterOnly()) {
		warnings = append(warnings, fmt.Sprintf("confidence %g is below minConfidence %g: the lesson will not be injected until you raise it (lessons edit %s)",
			conf, m.Config.MinConfidence, l.Slug))
	}
	if p.Replay != nil {
		if w := p.Replay(l, m.Config); w != "" {
			warnings = append(warnings, w)
		}
	}
	path, err := t.Create(&l, "promote candidate "+c.ID+" as "+l.Slug+": "+l.Summary)
	if err != nil {
		return out, err
	}
	if err := p.Store.MarkPromoted(c.ID, l.ID); err != nil {
		return out, fmt.Errorf("%s is written, but candidate %s is not marked promoted: %w", path, c.ID, err)
	}
	out.ID, out.Slug, out.Scope, out.Path, out.Warnings = l.ID, l.Slug, string(t.Scope), path, warnings
	return out, nil
}

// edit lets the user change the lesson file; the id, dates and content
// hash are set again afterwards.
func (p *Promoter) edit(l lessons.Lesson) (lessons.Lesson, error) {
	data, err := repo.MarshalLesson(&l)
	if err != nil {
		return l, err
	}
	name := l.Slug + ".yaml"
	after, err := p.Edit(name, data)
	if err != nil {
		return l, err
	}
	e, err := repo.ParseLesson(name, after)
	if err != nil {
		return l, cmdutil.WithHint(fmt.Errorf("%w\nnothing was written", err), "edit again and fix the problems above")
	}
	e.ID, e.CreatedAt = l.ID, l.CreatedAt
	cmdutil.CompleteLesson(e, p.Now())
	return *e, nil
}

// target is the store a candidate goes to, and the directory whose merged
// view it must not repeat.
func (p *Promoter) target(c scanner.Candidate, dest Dest) (cmdutil.Target, string, error) {
	def, project := scanner.DefaultScope(c)
	switch dest {
	case DestGlobal:
		return cmdutil.GlobalTarget(p.Dirs), p.Cwd, nil
	case DestProject:
		if len(c.Projects) == 1 {
			project = c.Projects[0]
		} else if project = scope.FindProject(p.Cwd); project == "" {
			return cmdutil.Target{}, "", cmdutil.Hintf("lessons promote "+c.ID+" --global, or run it inside the project",
				"candidate %s was seen in %d projects and %s is not inside a project with a .lessons directory", c.ID, len(c.Projects), p.Cwd)
		}
	default:
		if def == lessons.ScopeGlobal {
			return cmdutil.GlobalTarget(p.Dirs), p.Cwd, nil
		}
	}
	root, err := projectRoot(p.checkout(c, project))
	if err != nil {
		return cmdutil.Target{}, "", cmdutil.WithHint(fmt.Errorf("candidate %s: project %s: %w", c.ID, project, err),
			"lessons promote "+c.ID+" --global")
	}
	return cmdutil.ProjectTarget(root), root, nil
}

// checkout is a directory of project to promote c into. project is the
// project a session stood for (lessons.ProjectOf), which for the
// worktrees of one repository may be no checkout of its own: the
// checkout the user stands in when it is one of the project's, else
// project when it is a checkout, else the last worktree a session of c
// ran in that still exists, else project.
func (p *Promoter) checkout(c scanner.Candidate, project string) string {
	if root, err := projectRoot(p.Cwd); err == nil && lessons.ProjectOf(root) == project {
		return root
	}
	if scope.FindProject(project) == project || exists(filepath.Join(project, ".git")) {
		return project
	}
	for i := len(c.Provenance) - 1; i >= 0; i-- {
		if q := c.Provenance[i]; q.Project == project && q.Dir != "" {
			if _, err := os.Stat(q.Dir); err == nil {
				return q.Dir
			}
		}
	}
	return project
}

// exists reports whether p exists (a directory, or a worktree's .git file).
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// projectRoot is the root of the project a session ran in: the nearest
// directory with .lessons, else with .git, else the directory itself.
func projectRoot(dir string) (string, error) {
	if _, err := os.Stat(dir); err != nil {
		return "", err
	}
	if root := scope.FindProject(dir); root != "" {
		return root, nil
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(d) == d {
			return dir, nil
		}
	}
}
