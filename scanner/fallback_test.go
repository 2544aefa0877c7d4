package scanner

import (
	"testing"
)

// TestFallbackIsNoFix: a type check fails; the next call runs it again
// filtered by a grep and followed by `|| echo`, and so succeeds whether
// it passed or not. That is no sign the change fixed anything: no retry.
// The same check cut by position (`| tail -5`) shows its end, and when
// the change that made it pass is a real one it stays a retry.
func TestFallbackIsNoFix(t *testing.T) {
	fail := "error TS5023: Unknown compiler option '--strictMode'."
	for fixed, want := range map[string]bool{
		`pnpm run typecheck 2>&1 | grep -E "(UserList\.tsx|UserTable\.tsx)" || echo "No errors in our files"`: false,
		`pnpm run typecheck || true`:                 false,
		`pnpm run typecheck --strict 2>&1 | tail -5`: true,
	} {
		cs := scanned(t, []step{
			run("pnpm run typecheck --strictMode 2>&1", 2, fail),
			run(fixed, 0, "done"),
		})
		got := false
		for _, c := range cs {
			got = got || c.Kind == KindRetry
		}
		if got != want {
			t.Errorf("%s: a retry %v, want %v: %v", fixed, got, want, summaries(cs))
		}
	}
}
