package scanner

import (
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestQuoteLessonNotInsideQuotes: a lesson to quote a word the shell
// would expand (a URL with ?) fires on such a word left bare, not on a
// ? inside a quoted argument, where the shell expands nothing. Before,
// it fired before every gh api call whose quoted body asked a question.
func TestQuoteLessonNotInsideQuotes(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("gh api repos/acme/app/contents/go.mod?ref=main", 1, "zsh:1: no matches found: repos/acme/app/contents/go.mod?ref=main"),
		run("gh api 'repos/acme/app/contents/go.mod?ref=main'", 0, "{\"name\":\"go.mod\"}"),
	})
	var quote *Candidate
	for _, c := range candidatesOf(t, dir) {
		if strings.HasPrefix(c.Summary, "gh api: quote") {
			quote = &c
		}
	}
	if quote == nil {
		t.Fatal("no lesson to quote the URL")
	}
	if !fires(t, *quote, lessons.ToolCall{Tool: "Bash", Command: "gh api repos/acme/app/issues?state=open"}) {
		t.Error("silent before a bare URL with ?")
	}
	if fires(t, *quote, lessons.ToolCall{Tool: "Bash", Command: "gh api graphql -f body='Is the rollout done? It is.'"}) {
		t.Error("fired on a ? inside a quoted argument")
	}
}

// TestDashPatternNeedsAnOptionError: a pattern that starts with - is read
// as an option; a retry that marked it with -e teaches that only where
// the error was about an option. After an error about a missing file, the
// retry that also marked the pattern fixed something else.
func TestDashPatternNeedsAnOptionError(t *testing.T) {
	for _, tc := range []struct {
		out, fixed string
		want       bool
	}{
		{"grep: unrecognized option '--- title'", `grep -e "--- title" content/es.md`, true},
		{"grep: content/es: No such file or directory", `grep -e "--- title" content/es.md`, false},
	} {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", "s1", []step{
			run(`grep "--- title" content/es`, 2, tc.out),
			run(tc.fixed, 0, "--- title: Hola"),
		})
		got := slices.ContainsFunc(reaching(t, dir), func(c Candidate) bool { return strings.Contains(c.Summary, "put -e") })
		if got != tc.want {
			t.Errorf("after %q: a lesson to put -e %v, want %v", tc.out, got, tc.want)
		}
	}
}
