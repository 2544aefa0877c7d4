// Package edit implements `lessons edit`.
package edit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// Options are edit's flags and dependencies.
type Options struct {
	IO     *iostreams.IOStreams
	Dirs   scope.Dirs
	Merge  func() (scope.Merged, error)
	Getenv func(string) string
	Now    func() time.Time

	Key string
}

// NewCmdEdit returns the edit command; runF replaces editRun in tests.
func NewCmdEdit(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Merge: f.Merge, Getenv: f.Getenv, Now: f.Now}
	return &cobra.Command{
		Use:   "edit SLUG",
		Short: "Edit a global or project lesson in $EDITOR",
		Long: `Open a copy of the lesson's file in $VISUAL or $EDITOR (else vi). When the
editor exits the result is checked like a new lesson; if it is invalid, or
its examples no longer behave, the file is left as it was and the problems
are printed. A valid result is written back (in the global store, as one
commit). Built-in and pack lessons are read-only: copy one into .lessons/
with lessons show to change it for a project.`,
		Example:           `  EDITOR="code --wait" lessons edit pytest-hangs-waiting-on-a-tty-k3x9`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cmdutil.CompleteSlugs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key, opts.Dirs = args[0], f.Dirs()
			if runF != nil {
				return runF(opts)
			}
			return editRun(opts)
		},
	}
}

func editRun(opts *Options) error {
	m, err := opts.Merge()
	if err != nil {
		return err
	}
	r, t, err := cmdutil.FindOwned(opts.Dirs, m, opts.Key)
	if err != nil {
		return err
	}
	before, err := repo.ReadFile(r.Path)
	if err != nil {
		return err
	}
	after, err := cmdutil.RunEditor(opts.IO, opts.Getenv, r.Path, before)
	if err != nil {
		return err
	}
	if bytes.Equal(before, after) {
		fmt.Fprintf(opts.IO.ErrOut, "no changes to %s\n", r.Path)
		return nil
	}
	l, err := check(r, after)
	if err != nil {
		return cmdutil.WithHint(fmt.Errorf("%w\n%s is unchanged", err, r.Path), "lessons edit "+r.Slug+" to try again")
	}
	now := opts.Now().UTC().Truncate(time.Second)
	l.UpdatedAt = &now
	l.ContentHash = repo.ContentHash(l)
	path, err := t.Write(l, "edit "+l.Slug+": "+l.Summary)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "updated %s\n", path)
	return nil
}

// check parses the edited file as if it were at r's path (so problems name
// the file and line the user saw) and runs its examples.
func check(r scope.Resolved, data []byte) (*lessons.Lesson, error) {
	l, err := repo.ParseLesson(r.Path, data)
	if err != nil {
		return nil, err
	}
	if l.Slug != r.Slug {
		return nil, fmt.Errorf("%s: slug: changed from %s to %s, but the slug is the file name; add a new lesson instead", r.Path, r.Slug, l.Slug)
	}
	if _, fails := cmdutil.CheckExamples(l); len(fails) > 0 {
		var msgs []string
		for _, f := range fails {
			msgs = append(msgs, r.Path+": "+f.String())
		}
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	return l, nil
}
