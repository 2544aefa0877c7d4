package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

func TestUserWords(t *testing.T) {
	esc := strings.NewReplacer("<", "&lt;", ">", "&gt;")
	injected := injectionText("relevant to this prompt", Selection{Injected: []Pick{{Candidate: Candidate{Entry: Entry{
		Slug: "sed-portable", Text: "## Lesson: sed -i differs on macOS\nUse perl -pi -e."}}}}})
	for _, tc := range []struct {
		name, prompt, want string
	}{
		{"plain", "fix the flaky test", "fix the flaky test"},
		{"gemini -p", "<hook_context>" + esc.Replace(Protocol) + "</hook_context>\n\nlist the files", "\n\nlist the files"},
		{"two blocks", "<hook_context>a</hook_context>one <hook_context>b</hook_context>two", "one two"},
		{"unclosed tag", "what does <hook_context> mean here", "what does  mean here"},
		{"protocol pasted", "I saw this: " + Protocol + " what is it?", "I saw this:  what is it?"},
		{"lesson text echoed", "you said:\n" + injected + "\nwhy?", "you said:\n\nwhy?"},
		{"gemini lesson text", "x\n" + Platforms["gemini"].Context("AfterTool", injected).(geminiOutput).Specific.AdditionalContext + "\ny", "x\n\ny"},
		{"escapes read back", "a &lt;b&gt; c", "a <b> c"},
	} {
		if got := userWords(tc.prompt); got != tc.want {
			t.Errorf("%s: userWords(%q) = %q, want %q", tc.name, tc.prompt, got, tc.want)
		}
	}
}

// A prompt of a megabyte of unclosed <hook_context> tags (or of fenced
// code never closed) is answered in linear time: the old cut searched
// for the close again after every open, 3 s for 900 KB.
func TestPromptStrippingLinear(t *testing.T) {
	rs := builtinsForTest(t)
	run := builtinHookText(t, rs, map[string]string{"LESSONS_PROMPT_LESSONS": "on"})
	for i, p := range []string{
		strings.Repeat("<hook_context>docker build ", 1<<20/27),
		"run it\n```\n" + strings.Repeat("<hook_context>x\n", 1<<16),
		strings.Repeat("&lt;hook_context&gt;", 1<<20/20),
	} {
		start := time.Now()
		run(fmt.Sprintf("big-%d", i), p)
		if d := time.Since(start); d > time.Second {
			t.Errorf("prompt %d (%d bytes) took %v, want under 1s", i, len(p), d)
		}
	}
}

func TestRequestText(t *testing.T) {
	for _, tc := range []struct{ prompt, want string }{
		{"start the dev server", "start the dev server \n"},
		{"Implement the following plan:\n\n# Plan: run docker build\nmore", "Implement the following plan: \n"},
		{"fix the login\n```\npip install -e .\n```\nthanks", "fix the login \nthanks \n"},
		{"Crash in parser\nDescription\n\tTraceback: sudo pip install", "Crash in parser \n"},
		{"see this\n<bash-stdout>npm audit fix</bash-stdout>\nok", "see this \nok \n"},
		{"pip install hangs\nPython version: 3.9\nOS: Linux\n- pip version: 23.1", "pip install hangs \n"},
		{"the fix: use sed", "the fix: use sed \n"},
		{strings.Repeat("word ", 100), strings.Repeat("word ", requestWords) + ""},
	} {
		if got := requestText(tc.prompt); got != tc.want {
			t.Errorf("requestText(%q) = %q, want %q", tc.prompt, got, tc.want)
		}
	}
}

func builtinsForTest(t *testing.T) []scope.Resolved {
	t.Helper()
	rs, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return rs
}
