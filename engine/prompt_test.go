package engine

import (
	"strings"
	"testing"
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
