package lessons_test

import (
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// TestBuiltinsDeclareKind: every built-in says whether it is a pitfall
// (judged by the failures it comes before) or a hazard (judged by what it
// refuses or asks), so the report and the CI gate judge it the right way
// and nobody relies on the blocking default.
func TestBuiltinsDeclareKind(t *testing.T) {
	rs, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir})
	if len(errs) > 0 || len(rs) == 0 {
		t.Fatalf("built-in lessons: %d, %v", len(rs), errs)
	}
	for _, r := range rs {
		switch r.Kind {
		case lessons.KindPitfall, lessons.KindHazard:
		default:
			t.Errorf("%s: kind %q, want pitfall or hazard", r.Path, r.Kind)
		}
		if r.Block && r.Kind != lessons.KindHazard {
			t.Errorf("%s: blocks a call but is a %s; a lesson that refuses calls guards a hazard", r.Path, r.Kind)
		}
	}
}

// TestBuiltinsValidateCleanly: a fresh install's `lessons doctor` has
// nothing to say about the lessons it ships, so no built-in, in the
// default set or an opt-in pack, has even a warning from Validate (a
// keyword on a lesson on an error, which no prompt ever reads, is one).
func TestBuiltinsValidateCleanly(t *testing.T) {
	stores := []scope.Store{{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir}}
	for _, name := range scope.BuiltinPacks() {
		stores = append(stores, scope.Store{Scope: lessons.PackScope(name), Dir: scope.BuiltinPacksDir + "/" + name})
	}
	for _, s := range stores {
		rs, errs := repo.Loader{}.Lessons(s)
		if len(errs) > 0 || len(rs) == 0 {
			t.Fatalf("%s: %d lessons, %v", s.Dir, len(rs), errs)
		}
		for _, r := range rs {
			for _, p := range lessons.Validate(&r.Lesson) {
				t.Errorf("%s: %v", r.Path, p)
			}
		}
	}
}
