package cmdutil

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/scope"
)

// Find looks a lesson up by slug or id: the active one, else the excluded
// one from the highest scope, with why it is excluded. Not finding it is
// an error with a hint; when the lesson's file is there but does not load
// (broken YAML, an unknown field, a named pipe), the error is the one
// naming that file and line.
func Find(m scope.Merged, key string) (scope.Resolved, string, error) {
	for _, r := range m.Active {
		if r.Slug == key || r.ID == key {
			return r, "", nil
		}
	}
	for i := len(m.Excluded) - 1; i >= 0; i-- {
		if e := m.Excluded[i]; e.Slug == key || e.ID == key {
			return e.Resolved, e.Reason, nil
		}
	}
	return scope.Resolved{}, "", NotFound(m.Warnings, key)
}

// NotFound is the error for a lesson key that names no lesson: the load
// error of the lesson's file when one is among warnings (the merge's),
// else "no lesson here", each with a hint.
func NotFound(warnings []error, key string) error {
	if err := loadError(warnings, key); err != nil {
		return WithHint(err, "fix the file in an editor, then lessons doctor to check it")
	}
	return Hintf("lessons list --all  (or lessons search WORDS)", "no lesson %q here", key)
}

// loadError returns the load error of the file of the lesson slug, nil
// if none failed. Such errors start with the file's path, and a lesson
// file is named for its slug.
func loadError(warnings []error, slug string) error {
	for _, w := range warnings {
		msg := w.Error()
		for _, ext := range []string{".yaml:", ".yml:"} {
			i := strings.Index(msg, string(filepath.Separator)+slug+ext)
			if i >= 0 && !strings.Contains(msg[:i], ": ") && !strings.Contains(msg[:i], "\n") {
				return w
			}
		}
	}
	return nil
}

// CompleteSlugs completes a command's arguments with the slugs of the
// lessons that apply to the working directory.
func CompleteSlugs(f *Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		m, err := f.Merge()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		var slugs []string
		for _, r := range m.Active {
			slugs = append(slugs, fmt.Sprintf("%s\t%s", r.Slug, r.Summary))
		}
		for _, e := range m.Excluded {
			slugs = append(slugs, fmt.Sprintf("%s\t%s (%s)", e.Slug, e.Summary, e.Reason))
		}
		return slugs, cobra.ShellCompDirectiveNoFileComp
	}
}
