package cmdutil

import (
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// A lesson that keeps to foreground calls checks it with a background
// example; lessons test names both the example and how it ran.
func TestCheckExamplesInTheBackground(t *testing.T) {
	l := &lessons.Lesson{ID: "01JQ0000000000000000000077", Slug: "serve-blocks", Summary: "a dev server blocks the agent",
		Triggers: lessons.Trigger{Commands: []string{`\bnpm\s+run\s+dev\b`}, Foreground: true},
		Examples: lessons.Examples{
			Match:   []lessons.ToolCall{{Tool: "Bash", Command: "npm run dev"}},
			NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: "npm run dev", Background: true}},
		}}
	if n, fails := CheckExamples(l); n != 2 || len(fails) != 0 {
		t.Errorf("CheckExamples = %d, %v; want 2 examples, no failure", n, fails)
	}
	l.Triggers.Foreground = false
	_, fails := CheckExamples(l)
	want := `examples.noMatch[0] "npm run dev" run in the background: matches, but should not`
	if len(fails) != 1 || fails[0].String() != want {
		t.Errorf("without foreground: %v, want %q", fails, want)
	}
}

// Every built-in lesson, and every lesson of the packs shipped with it,
// matches its match examples and none of its noMatch ones, through the
// hook's own matcher, as lessons test --dir checks a pack.
func TestBuiltinExamples(t *testing.T) {
	stores := []scope.Store{{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true}}
	for _, name := range scope.BuiltinPacks() {
		// read from the binary, as the built-ins are (a pack's scope
		// reads its own folder on disk)
		stores = append(stores, scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinPacksDir + "/" + name})
	}
	n := 0
	for _, s := range stores {
		rs, errs := repo.Loader{}.Lessons(s)
		if len(errs) > 0 || len(rs) == 0 {
			t.Fatalf("%s: %d lessons, %v", s.Dir, len(rs), errs)
		}
		for i := range rs {
			k, fails := CheckExamples(&rs[i].Lesson)
			n += k
			for _, f := range fails {
				t.Errorf("%s: %s", rs[i].Path, f)
			}
		}
	}
	if n < 100 {
		t.Errorf("%d examples checked: the built-ins were not read", n)
	}
}
