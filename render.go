package lessons

import "strings"

// Text is what an agent reads for the lesson: its injection text, or by
// default a heading with the summary, the problem and the fix.
func (l *Lesson) Text() string {
	if l.Injection != "" {
		return strings.TrimSpace(l.Injection)
	}
	return "## Lesson: " + l.Summary + "\n" + strings.TrimSpace(l.Problem) + "\n**Fix**: " + strings.TrimSpace(l.Solution)
}

// maxReasonCommand caps the command quoted in a block reason.
const maxReasonCommand = 120

// Reason is the block reason with {command} replaced by the tool call's
// command, cut to 120 characters.
func (l *Lesson) Reason(command string) string {
	reason := l.BlockReason
	if reason == "" {
		reason = l.Summary
	}
	if r := []rune(command); len(r) > maxReasonCommand {
		command = string(r[:maxReasonCommand-1]) + "…"
	}
	return strings.ReplaceAll(reason, "{command}", command)
}
