package lessons

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestExpandBraces(t *testing.T) {
	got, err := ExpandBraces("src/*.{js,ts{,x}}")
	if want := []string{"src/*.js", "src/*.ts", "src/*.tsx"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ExpandBraces = %q, %v; want %q", got, err, want)
	}
	if got, err := ExpandBraces("a{b"); err != nil || !reflect.DeepEqual(got, []string{"a{b"}) {
		t.Errorf("ExpandBraces(unbalanced) = %q, %v", got, err)
	}
	if got, err := ExpandBraces(strings.Repeat("{a,b}", 6)); err != nil || len(got) != 64 {
		t.Errorf("six groups: %d globs, %v; want 64", len(got), err)
	}
}

// Thirty {a,b} groups in 300 bytes once expanded to 2^30 globs and ran
// sync out of memory; now they fail fast.
func TestExpandBracesIsCapped(t *testing.T) {
	start := time.Now()
	_, err := ExpandBraces(strings.Repeat("{a,b}", 30) + "/*.go")
	if err == nil {
		t.Fatal("ExpandBraces accepted 2^30 alternatives")
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("refusing took %v", d)
	}
	l := &Lesson{Summary: "globs that expand too far are refused by validation", Problem: "p", Solution: "s",
		Triggers: Trigger{Paths: []string{strings.Repeat("{a,b}", 30)}}}
	found := false
	for _, p := range Validate(l) {
		found = found || strings.HasPrefix(p.Field, "triggers.paths") && !p.Warning
	}
	if !found {
		t.Errorf("Validate found no error in a glob of 2^30 alternatives: %v", Validate(l))
	}
}
