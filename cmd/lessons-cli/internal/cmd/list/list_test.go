package list

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scope"
)

func TestNewCmdList(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios}
	cases := []struct {
		args    string
		want    Options
		wantErr string
	}{
		{"", Options{}, ""},
		{"--scope project --tag lang:go --tool Bash --all --json", Options{Scope: "project", Tag: "lang:go", Tool: "Bash", All: true, JSON: true}, ""},
		{"--scope pack:team", Options{Scope: "pack:team"}, ""},
		{"--scope nowhere", Options{}, "--scope must be"},
		{"extra", Options{}, "unknown command"},
	}
	for _, c := range cases {
		var got *Options
		err := clitest.Run(NewCmdList(f, func(o *Options) error { got = o; return nil }), c.args)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("list %s: error %v, want %q", c.args, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("list %s: %v", c.args, err)
		}
		if g := (flags{got.Scope, got.Tag, got.Tool, got.All, got.JSON}); g != (flags{c.want.Scope, c.want.Tag, c.want.Tool, c.want.All, c.want.JSON}) {
			t.Errorf("list %s: options %+v, want %+v", c.args, *got, c.want)
		}
	}
}

type flags struct {
	scope, tag, tool string
	all, json        bool
}

func merged() scope.Merged {
	overridden := clitest.Resolved(lessons.ScopeBuiltin, "shared", "npm test")
	project := clitest.Resolved(lessons.ScopeProject, "shared", "npm test")
	project.Tags = []string{"lang:javascript"}
	disabled := clitest.Resolved(lessons.ScopeGlobal, "muted", "rm -rf")
	return scope.Merged{
		Active: []scope.Resolved{clitest.Resolved(lessons.ScopeBuiltin, "alpha", "pytest"), project},
		Excluded: []scope.Exclusion{
			{Resolved: overridden, Reason: "overridden by project:project/shared.yaml"},
			{Resolved: disabled, Reason: "disabled"},
		},
	}
}

func run(t *testing.T, opts Options) (string, string) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	opts.IO = ios
	opts.Merge = func() (scope.Merged, error) { return merged(), nil }
	if err := listRun(&opts); err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String()
}

func TestListRun(t *testing.T) {
	cases := []struct {
		opts Options
		want string
	}{
		{Options{}, "alpha\tbuiltin\t5\tLesson alpha says something useful\nshared\tproject\t5\tLesson shared says something useful\n"},
		{Options{Scope: "project"}, "shared\tproject\t5\tLesson shared says something useful\n"},
		{Options{Tag: "javascript"}, "shared\tproject\t5\tLesson shared says something useful\n"},
		{Options{Tool: "Edit"}, ""},
		{Options{All: true, Scope: "global"}, "muted\tglobal\t5\tdisabled\tLesson muted says something useful\n"},
	}
	for _, c := range cases {
		if got, _ := run(t, c.opts); got != c.want {
			t.Errorf("list %+v:\n%s\nwant:\n%s", c.opts, got, c.want)
		}
	}
}

// TestListJSONFields pins the JSON contract of list.
func TestListJSONFields(t *testing.T) {
	out, _ := run(t, Options{JSON: true, All: true})
	var items []map[string]any
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != 4 {
		t.Fatalf("%d items, want 4", len(items))
	}
	var keys []string
	for k := range items[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"block", "disabled", "excluded", "id", "path", "priority", "scope", "slug", "summary", "tags", "tools"}
	if !slices.Equal(keys, want) {
		t.Errorf("JSON fields = %v, want %v", keys, want)
	}
	if items[1]["slug"] != "muted" || items[1]["disabled"] != true {
		t.Errorf("second item = %v, want muted and disabled", items[1])
	}
}
