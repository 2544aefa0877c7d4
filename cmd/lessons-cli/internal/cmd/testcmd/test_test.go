package testcmd

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

func merged() scope.Merged {
	good := clitest.Resolved(lessons.ScopeBuiltin, "good", "pytest")
	good.Examples.NoMatch = []lessons.ToolCall{{Tool: "Bash", Command: "npm test"}}
	bad := clitest.Resolved(lessons.ScopeProject, "bad", "npm test")
	bad.Examples.Match = append(bad.Examples.Match, lessons.ToolCall{Tool: "Bash", Command: "yarn test"})
	return scope.Merged{Active: []scope.Resolved{good, bad}}
}

func run(t *testing.T, opts Options) (string, string, error) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	opts.IO = ios
	opts.Merge = func() (scope.Merged, error) { return merged(), nil }
	err := testRun(&opts)
	return out.String(), errOut.String(), err
}

func TestTestRun(t *testing.T) {
	out, _, err := run(t, Options{})
	if !errors.Is(err, cmdutil.ErrSilent) {
		t.Errorf("error %v, want the silent exit 1", err)
	}
	want := `FAIL project/bad.yaml: bad: examples.match[1] "yarn test": does not match, but should` + "\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	out, _, err = run(t, Options{Slugs: []string{"good"}})
	if err != nil || !strings.HasPrefix(out, "ok: 1 lessons, 2 examples") {
		t.Errorf("test good: %v, %q", err, out)
	}
	if _, _, err := run(t, Options{Slugs: []string{"missing"}}); err == nil {
		t.Error("test missing: no error")
	}
}

// TestTestJSONFields pins the JSON contract of test.
func TestTestJSONFields(t *testing.T) {
	out, _, _ := run(t, Options{JSON: true})
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range rep {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"examples", "failures", "lessons"}; !slices.Equal(keys, want) {
		t.Errorf("report fields = %v, want %v", keys, want)
	}
	keys = nil
	for k := range rep["failures"].([]any)[0].(map[string]any) {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"example", "message", "path", "slug"}; !slices.Equal(keys, want) {
		t.Errorf("failure fields = %v, want %v", keys, want)
	}
}
