// Package builtinreport measures the built-in lessons on real session
// histories, writes the per-built-in report (docs/builtins.md) and holds
// the gate CI applies to it: a built-in every user gets on day one has to
// earn its place.
package builtinreport

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// History is one set of session logs the built-ins are measured on.
type History struct {
	Name string // short name, a column of the report
	Path string // file or directory replay reads
}

// SharedHistories are the histories under shared (the project's ../shared):
// the corpus of many projects and the two team histories.
func SharedHistories(shared string) []History {
	return []History{
		{Name: "corpus", Path: filepath.Join(shared, "corpus")},
		{Name: "entireio-cli", Path: filepath.Join(shared, "team-history", "entireio-cli", ".claude", "projects")},
		{Name: "oh-my-posh", Path: filepath.Join(shared, "team-history", "oh-my-posh", ".claude", "projects")},
	}
}

// Measured is the replay of the built-ins over one history.
type Measured struct {
	History History
	Report  *replay.Report
}

// Builtins is the merged view holding only the built-in lessons, as a
// user with no store, pack or project gets them.
func Builtins() (scope.Merged, error) {
	return merged("", func(r scope.Resolved) bool { return r.Scope == lessons.ScopeBuiltin })
}

// OptIn is the merged view holding only the lessons of the packs shipped
// with the binary (lessons pack add builtin:NAME), as if a user had
// subscribed to all of them.
func OptIn() (scope.Merged, error) {
	var cfg strings.Builder
	cfg.WriteString("packs:\n")
	for _, name := range scope.BuiltinPacks() {
		fmt.Fprintf(&cfg, "  - name: %s\n    url: %s%s\n", name, lessons.BuiltinPackScheme, name)
	}
	return merged(cfg.String(), func(r scope.Resolved) bool { return r.Scope.Pack() != "" })
}

// merged merges the stores of a user whose global config is config (""
// for none) in an empty directory, and keeps the lessons keep accepts.
func merged(config string, keep func(scope.Resolved) bool) (scope.Merged, error) {
	tmp, err := os.MkdirTemp("", "lessons-builtins-")
	if err != nil {
		return scope.Merged{}, err
	}
	defer os.RemoveAll(tmp)
	d := scope.Dirs{Home: filepath.Join(tmp, "home"), Cache: filepath.Join(tmp, "cache"), State: filepath.Join(tmp, "state")}
	if config != "" {
		if err := os.MkdirAll(d.Home, 0o755); err != nil {
			return scope.Merged{}, err
		}
		if err := os.WriteFile(d.GlobalConfig(), []byte(config), 0o644); err != nil {
			return scope.Merged{}, err
		}
	}
	mg := scope.Merge(d, tmp, repo.Loader{})
	mg.Active = slices.DeleteFunc(mg.Active, func(r scope.Resolved) bool { return !keep(r) })
	if len(mg.Warnings) > 0 {
		return mg, fmt.Errorf("built-in lessons: %w", mg.Warnings[0])
	}
	return mg, nil
}

// Measure replays mg's lessons over each history, one after the other.
// A history that cannot be read is an error naming it.
func Measure(ctx context.Context, mg scope.Merged, hs []History) ([]Measured, error) {
	var out []Measured
	for _, h := range hs {
		if _, err := os.Stat(h.Path); err != nil {
			return nil, fmt.Errorf("history %s: %w", h.Name, err)
		}
		rep, err := replay.Run(ctx, replay.Job{Merged: mg, Weights: scanner.DefaultWeights(),
			Read: scanner.ReadOptions{Paths: []string{h.Path}}})
		if err != nil {
			return nil, fmt.Errorf("history %s: %w", h.Name, err)
		}
		out = append(out, Measured{History: h, Report: rep})
	}
	return out, nil
}
