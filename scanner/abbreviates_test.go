package scanner

import (
	"strings"
	"testing"
)

// TestRetryDropsAnOptionTheErrorSpellsOut: cargo refuses --lib in a
// package with no library target ("no library targets found"), and the
// same call without it works: the error spells out the option it
// refused, so the retry is a lesson ("drop --lib"), not a call that
// asked for less.
func TestRetryDropsAnOptionTheErrorSpellsOut(t *testing.T) {
	cs := scanned(t, []step{
		write("/p/src/registry.rs", "fn sorted() {}"),
		run("cargo test registry::tests --lib", 101, "error: no library targets found in package `mise`"),
		run("cargo test registry::tests", 0, "test result: ok. 3 passed; 0 failed"),
	})
	found := false
	for _, c := range cs {
		if c.Kind == KindRetry && strings.Contains(c.Summary, "drop --lib") {
			found = true
		}
	}
	if !found {
		var got []string
		for _, c := range cs {
			got = append(got, c.Kind+": "+c.Summary)
		}
		t.Errorf("no retry lesson dropping --lib; candidates %q", got)
	}
}

func TestAbbreviates(t *testing.T) {
	for _, tt := range []struct {
		text, name string
		want       bool
	}{
		{"error: no library targets found in package `mise`", "lib", true},
		{"error: no bin target named `server`; available binaries: mise", "bin", true},
		{"unknown environment 'staging'", "env", true},
		{"found 3 errors. [*] 3 fixable with the fix option", "fix", false}, // the option's own act
		{"task already claimed by another agent", "claim", false},
		{"no library targets", "li", false},   // too short to say
		{"a calibrated library", "lib", true}, // a word's start only
		{"calibration failed", "lib", false},
	} {
		if got := abbreviates(tt.text, tt.name); got != tt.want {
			t.Errorf("abbreviates(%q, %q) = %v, want %v", tt.text, tt.name, got, tt.want)
		}
	}
	// one option dropped and nothing else: another change may be what the
	// longer word is about ("repository" and a rewritten --body)
	err := "graphql: projects (classic) is being deprecated (repository.pullrequest.projectcards)"
	if d, _ := diffCommands("gh pr edit 7 --repo acme/app --body x", "gh pr edit 7 --body y"); droppedAbbreviated(d, err) {
		t.Errorf("a retry that dropped --repo and changed the body counts as dropping what the error spells out")
	}
	if d, _ := diffCommands("cargo test --lib", "cargo test"); !droppedAbbreviated(d, "error: no library targets found") {
		t.Errorf("cargo test --lib, then cargo test: the dropped --lib is not read as what the error spells out")
	}
}
