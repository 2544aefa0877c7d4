package engine

import (
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

func loadBuiltins(t *testing.T) []scope.Resolved {
	t.Helper()
	ls, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return ls
}

// The blocks compiled into the hook are lessons.d's: a lesson added,
// changed or unblocked there without `go generate ./engine` fails here.
func TestBuiltinBlocksFresh(t *testing.T) {
	data, err := EncodeBuiltinBlocks(loadBuiltins(t))
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != builtinBlocks {
		t.Fatal("engine/builtin_gen.go is stale against lessons.d: run go generate ./engine")
	}
}

// Every example of a blocking built-in is refused, or not, by the
// embedded set alone, as by a manifest built from lessons.d.
func TestBuiltinBlocksExamples(t *testing.T) {
	n := 0
	for _, l := range loadBuiltins(t) {
		if !l.Block {
			continue
		}
		n++
		for _, want := range []bool{true, false} {
			calls := l.Examples.Match
			if !want {
				calls = l.Examples.NoMatch
			}
			for _, c := range calls {
				call := CallOf(c)
				if call.Tool == "" {
					call.Tool = "Bash"
				}
				r := &run{h: &Hook{}, pf: Platforms[DefaultPlatform], p: Payload{HookEventName: "PreToolUse"}}
				got := len(r.builtinBlocks(call)) > 0
				if got != want {
					t.Errorf("%s: built-in blocks refuse %q = %v, want %v", l.Slug, call.Command, got, want)
				}
			}
		}
	}
	if n < 5 {
		t.Fatalf("only %d blocking built-ins", n)
	}
}
