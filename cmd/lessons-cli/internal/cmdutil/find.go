package cmdutil

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lessons-dev/lessons/scope"
)

// Find looks a lesson up by slug or id: the active one, else the excluded
// one from the highest scope, with why it is excluded. Not finding it is
// an error with a hint.
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
	return scope.Resolved{}, "", Hintf("lessons list --all  (or lessons search WORDS)", "no lesson %q here", key)
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
