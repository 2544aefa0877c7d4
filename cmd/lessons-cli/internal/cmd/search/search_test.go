package search

import (
	"encoding/json"
	"slices"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

func corpus() []scope.Resolved {
	a := clitest.Resolved(lessons.ScopeBuiltin, "pytest-hangs-on-tty", "pytest")
	a.Summary = "pytest hangs waiting for a TTY in agent shells"
	b := clitest.Resolved(lessons.ScopeBuiltin, "jest-watch-mode", "jest")
	b.Summary = "jest watch mode never exits"
	b.Problem = "Running jest in watch mode in a non-interactive shell never returns, like pytest can"
	c := clitest.Resolved(lessons.ScopeGlobal, "force-push", "git push --force")
	c.Tags = []string{"tool:git"}
	return []scope.Resolved{a, b, c}
}

func slugs(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Slug)
	}
	return out
}

func TestRank(t *testing.T) {
	cases := []struct {
		query string
		want  []string
	}{
		{"pytest", []string{"pytest-hangs-on-tty", "jest-watch-mode"}},
		{"PYTEST hangs", []string{"pytest-hangs-on-tty"}},
		{"git", []string{"force-push"}},
		{"wat", []string{"jest-watch-mode"}},
		{"nothing-like-this", nil},
		{"  ", nil},
	}
	for _, c := range cases {
		if got := slugs(Rank(corpus(), c.query)); !slices.Equal(got, c.want) {
			t.Errorf("Rank(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

// TestSearchJSONFields pins the JSON contract of search.
func TestSearchJSONFields(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	opts := &Options{IO: ios, Query: "pytest", JSON: true, Merge: func() (scope.Merged, error) {
		return scope.Merged{Active: corpus()}, nil
	}}
	if err := searchRun(opts); err != nil {
		t.Fatal(err)
	}
	var results []map[string]any
	if err := json.Unmarshal(out.Bytes(), &results); err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	var keys []string
	for k := range results[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"id", "path", "scope", "score", "slug", "summary", "tags"}; !slices.Equal(keys, want) {
		t.Errorf("JSON fields = %v, want %v", keys, want)
	}
}
