package cmdutil

import (
	"slices"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// A candidate for a mistake a built-in lesson already catches, in other
// words, is refused naming the built-in: promoting the jest candidate
// once made a near-copy that injected beside the built-in one.
func TestCheckNewFindsTheSameMistake(t *testing.T) {
	builtin, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := scope.Merged{Active: builtin}
	c := scanner.Candidate{
		Kind: scanner.KindTag, Tool: "Bash", Summary: "the test runner never returned and the session stalled",
		Problem:  "The test command kept running after the suite finished, waiting for file changes, until the call was cut.",
		Solution: "Set the continuous-integration variable so the runner exits once the suite is done.",
		Triggers: lessons.Trigger{Commands: []string{`\bjest\b.*\s--watch\b`}},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "npx jest --watch src"}},
			NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: "npx jest src"}}},
		Priority: 5, Confidence: 0.9,
	}
	l := scanner.ToLesson(c)
	CompleteLesson(&l, time.Now())
	_, err := CheckNew(&l, m, false)
	if err == nil || !strings.Contains(err.Error(), "repeats jest-watch-and-react-scripts-test") {
		t.Errorf("CheckNew = %v, want the built-in jest lesson named", err)
	}
	if _, err := CheckNew(&l, m, true); err != nil {
		t.Errorf("with --force: %v", err)
	}
}

// builtins are the built-in lessons, as the merged view of a store with
// nothing else.
func builtins(t *testing.T) scope.Merged {
	t.Helper()
	builtin, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return scope.Merged{Active: builtin}
}

// TestSaysSame on real lessons: the built-in lessons whose triggers fire
// on one another's examples teach different things about one command,
// and none of them says the same as another; each is written beside all
// the others.
func TestSaysSame(t *testing.T) {
	m := builtins(t)
	overlapping := 0
	for i := range m.Active {
		a := &m.Active[i]
		for j := range m.Active {
			b := &m.Active[j]
			if i == j {
				continue
			}
			if _, fires := firesOnAny(&a.Lesson, b.Examples.Match); !fires {
				continue
			}
			overlapping++
			if SaysSame(&a.Lesson, &b.Lesson) {
				t.Errorf("%s fires on %s's examples and says the same (%.2f)", a.Slug, b.Slug, TextOverlap(&a.Lesson, &b.Lesson))
			}
		}
		rest := scope.Merged{Active: append(slices.Clone(m.Active[:i]), m.Active[i+1:]...)}
		if _, err := CheckNew(&a.Lesson, rest, false); err != nil {
			t.Errorf("%s beside the other built-ins: %v", a.Slug, err)
		}
	}
	if overlapping < 4 {
		t.Errorf("only %d built-in pairs overlap: the test no longer tells anything", overlapping)
	}
}

// TestCheckNewSameCommandOtherMistake: a project lesson on terraform apply
// that says something else than the built-in about applying without a
// reviewed plan is written, naming the built-in and how to put one first;
// one that restates the built-in is refused.
func TestCheckNewSameCommandOtherMistake(t *testing.T) {
	m := builtins(t)
	const builtin = "terraform-apply-without-a-saved-reviewed-p2fk"
	target := lessons.Lesson{
		Summary:  "terraform apply here must target one module at a time",
		Problem:  "This repository's root module holds every environment: a plain terraform apply plans all of them and holds every state lock for minutes.",
		Solution: "Apply the one module you changed with -target=module.NAME, as the team's runbook says.",
		Triggers: lessons.Trigger{Commands: []string{`\bterraform\s+apply\b`}, Unless: []string{`-target\b`}},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "terraform apply -auto-approve"}},
			NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: "terraform apply -target=module.vpc"}}},
	}
	CompleteLesson(&target, time.Now())
	notes, err := CheckNew(&target, m, false)
	if err != nil || len(notes) != 1 || !strings.HasPrefix(notes[0], builtin+" (builtin") ||
		!strings.Contains(notes[0], "fires on the same calls") || !strings.Contains(notes[0], builtin+" first (priority 8, this one 5); to put this one first, raise its priority above 8 (lessons edit "+target.Slug+")") {
		t.Errorf("CheckNew = %v, %q; want it written with a note naming %s", err, notes, builtin)
	}

	restated := lessons.Lesson{
		Summary:  "terraform apply -auto-approve applies a fresh plan that nobody reviewed",
		Problem:  "Without a saved plan, terraform apply plans again and executes at once: drift or a provider upgrade can replace or destroy infrastructure.",
		Solution: "Save the plan with terraform plan -out=tfplan, show it to the user, then terraform apply tfplan.",
		Triggers: lessons.Trigger{Commands: []string{`\bterraform\s+apply\b`}, Unless: []string{`\btfplan\b`}},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "terraform apply -auto-approve"}},
			NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: "terraform apply tfplan"}}},
	}
	CompleteLesson(&restated, time.Now())
	for i := range m.Active {
		if r := &m.Active[i]; r.Slug == builtin {
			t.Logf("TextOverlap with %s: another mistake %.2f, restated %.2f", builtin, TextOverlap(&target, &r.Lesson), TextOverlap(&restated, &r.Lesson))
		}
	}
	if _, err := CheckNew(&restated, m, false); err == nil || !strings.Contains(err.Error(), "repeats "+builtin) {
		t.Errorf("CheckNew of the built-in restated = %v, want it refused naming %s", err, builtin)
	}
}
