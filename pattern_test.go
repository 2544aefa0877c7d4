package lessons_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dlclark/regexp2"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// generatedPatterns cover the constructs the translation rewrites.
var generatedPatterns = []string{
	`a.b`, `^a\s+b$`, `\S+\s\d`, `[\s,]x`, `[^\s]y`, `\bgit\b`, `a$|b`, `(a$)`, `(?i)GIT push`,
	`(?i:x)y`, `\x41\u00e9`, `[a-c]+\.py`, `(?<name>a|b)c`, `\w+=\W`, `--force(?:-with-lease)?`,
	`a{2,3}`, `\$\{?HOME`, `[\[\]]`, `\.`, `\/tmp`, `x\t\v\f\r\ny`, `\D\d`, `a*?b`, `[.]`,
}

// TestLinearAgreesWithRegexp2 is the proof that moving a pattern to the
// linear engine keeps its meaning: every built-in pattern and a set of
// generated ones, on their own lessons' examples and on random subjects
// made of the characters the two engines could read differently.
func TestLinearAgreesWithRegexp2(t *testing.T) {
	rs, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir})
	if len(errs) > 0 || len(rs) < 50 {
		t.Fatalf("built-in lessons: %d, %v", len(rs), errs)
	}
	patterns := append([]string(nil), generatedPatterns...)
	var examples []string
	for _, r := range rs {
		tr := r.Lesson.Triggers
		patterns = append(append(append(patterns, tr.Commands...), tr.Unless...), tr.Content...)
		for _, ex := range append(r.Lesson.Examples.Match, r.Lesson.Examples.NoMatch...) {
			examples = append(examples, ex.Command, ex.Content)
		}
	}
	alphabet := []string{"a", "b", "x", "y", "A", "é", "git", " push", " --force", " -f", "=", "/", "$", "{HOME}",
		" ", "\t", "\v", "\f", "\r", "\n", "\u00a0", "\u2028", "\ufeff", ".", "-", "0", "9", ";", "&", "|", "(", ")", "'", `"`}
	r := rand.New(rand.NewPCG(7, 11))
	linear, checked := 0, 0
	for _, src := range patterns {
		p, err := lessons.CompilePattern(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if p.Linear() || p.LinearOn("x") {
			linear++
		} else {
			continue
		}
		ref := regexp2.MustCompile(src, regexp2.ECMAScript)
		subjects := append([]string(nil), examples...)
		for range 300 {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			subjects = append(subjects, b.String(), b.String()+"\n")
		}
		for _, s := range subjects {
			want, err := ref.MatchString(s)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := p.MatchString(s); got != want {
				t.Errorf("pattern %q on %q: linear engine says %v, regexp2 %v", src, s, got, want)
			}
			checked++
		}
	}
	t.Logf("%d of %d patterns run on the linear engine; %d subjects agree", linear, len(patterns), checked)
	if linear < len(patterns)/2 {
		t.Errorf("only %d of %d patterns are linear", linear, len(patterns))
	}
}

// Patterns whose meaning the two engines read differently, or that need
// backtracking, stay on regexp2.
func TestBacktrackingOnlyWhenNeeded(t *testing.T) {
	for src, linear := range map[string]bool{
		`git\s+push\b(?!.*--force-with-lease)`: false, // lookahead
		`(?<=x)y`:                              false, // lookbehind
		`(a)\1`:                                false, // backreference
		`[]a]`:                                 false, // [] is empty in ECMAScript
		`\cJ`:                                  false,
		`\bgit\b`:                              false, // linear on ASCII subjects only
		`^(a+)+$`:                              true,
		`^git(\s*\S+)+[\x01-\x08]`:             true,
	} {
		p, err := lessons.CompilePattern(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if p.Linear() != linear {
			t.Errorf("CompilePattern(%q).Linear() = %v, want %v", src, p.Linear(), linear)
		}
	}
}

// The probe builds its inputs from the pattern: ^git(\s*\S+)+… never
// explodes on inputs that do not start with "git", and 700 copies of it
// in a pack once took a hook 12 s.
func TestProbeUsesThePatternsWords(t *testing.T) {
	for _, src := range []string{`^git(\s*\S+)+[\x01-\x08]`, `^(a+)+$`, `(?=x)(x+x+)+y`} {
		if err := lessons.ProbeBacktracking(src); err == nil {
			t.Errorf("ProbeBacktracking(%q) found nothing", src)
		}
	}
	for _, src := range []string{`git\s+push\b(?!.*--force-with-lease)`, `\bpytest\b.*\s-s\b`, `^git\s+(\S+\s+)*commit`} {
		if err := lessons.ProbeBacktracking(src); err != nil {
			t.Errorf("ProbeBacktracking(%q) = %v", src, err)
		}
	}
}
