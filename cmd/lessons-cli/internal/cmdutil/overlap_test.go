package cmdutil

import (
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
		Triggers: lessons.Trigger{Commands: []string{`\bnpm\s+test\b`}, Unless: []string{`\bCI=true\b`}},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "npm test"}},
			NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: "CI=true npm test"}}},
		Priority: 5, Confidence: 0.9,
	}
	l := scanner.ToLesson(c)
	CompleteLesson(&l, time.Now())
	err := CheckNew(&l, m, false)
	if err == nil || !strings.Contains(err.Error(), "same mistake as jest-watch-and-react-scripts-test") {
		t.Errorf("CheckNew = %v, want the built-in jest lesson named", err)
	}
	if err := CheckNew(&l, m, true); err != nil {
		t.Errorf("with --force: %v", err)
	}
}
