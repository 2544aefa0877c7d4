package scanner

// LoggedPrompt is a prompt a person typed in a session, for replaying
// prompt-time lessons. Only formats whose logs tell a typed prompt from
// injected text have them (Claude Code's).
type LoggedPrompt struct {
	// Text is the prompt, cut at maxPromptBytes: the hook reads its
	// request from the first lines.
	Text string
	Line int
	// Before is the index of the call the prompt came before (the
	// number of calls before it).
	Before int
}

// maxPromptBytes caps what a session keeps of one prompt.
const maxPromptBytes = 64 << 10

// prompt keeps a typed prompt with its place among the calls.
func (c *collector) prompt(e Event) {
	t := e.Text
	if len(t) > maxPromptBytes {
		t = t[:maxPromptBytes]
	}
	c.prompts = append(c.prompts, LoggedPrompt{Text: t, Line: e.Line, Before: len(c.calls)})
}
