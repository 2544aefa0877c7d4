package show

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

func merged() scope.Merged {
	r := clitest.Resolved(lessons.ScopeProject, "copied", "pytest")
	r.ID = "01JD6V7Q8YB3K0ZP2M4N5R6S7T"
	r.Overrides = []string{"builtin:lessons.d/copied.yaml"}
	return scope.Merged{Active: []scope.Resolved{r}}
}

func show(t *testing.T, opts Options) string {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	opts.IO = ios
	opts.Merge = func() (scope.Merged, error) { return merged(), nil }
	if err := showRun(&opts); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestShowPrintsTheFile(t *testing.T) {
	r := merged().Active[0]
	want, err := repo.MarshalLesson(&r.Lesson)
	if err != nil {
		t.Fatal(err)
	}
	if got := show(t, Options{Key: "copied"}); got != string(want) {
		t.Errorf("show printed:\n%s\nwant MarshalLesson's:\n%s", got, want)
	}
	if _, err := repo.ParseLesson("copied.yaml", want); err != nil {
		t.Errorf("what show prints does not load back: %v", err)
	}
	if got := show(t, Options{Key: r.ID}); got != string(want) {
		t.Errorf("show by id printed:\n%s", got)
	}
}

func TestShowUnknown(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	err := showRun(&Options{IO: ios, Key: "nope", Merge: func() (scope.Merged, error) { return merged(), nil }})
	if err == nil || !strings.Contains(err.Error(), `no lesson "nope"`) {
		t.Errorf("show nope: %v", err)
	}
}

// TestShowJSONFields pins the JSON contract of show.
func TestShowJSONFields(t *testing.T) {
	var got map[string]any
	if err := json.Unmarshal([]byte(show(t, Options{Key: "copied", JSON: true})), &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"examples", "excluded", "id", "overrides", "path", "problem", "scope", "slug", "solution", "summary", "triggers"}
	if !slices.Equal(keys, want) {
		t.Errorf("JSON fields = %v, want %v", keys, want)
	}
	if got["scope"] != "project" || len(got["overrides"].([]any)) != 1 {
		t.Errorf("scope %v, overrides %v", got["scope"], got["overrides"])
	}
}
