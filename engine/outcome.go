package engine

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	lessons "github.com/lessons-dev/lessons"
)

// outcome is what an outcome event (PostToolUse, PostToolUseFailure,
// Gemini CLI's AfterTool) says about how a tool call ended.
type outcome struct {
	// failed: the call failed. An exit status the tool means as an answer
	// (grep 1 is "no match") is no failure.
	failed bool
	// errLine is the first telling line of the error, unredacted.
	errLine string
	// text is what the failed call printed, unredacted, as error
	// triggers search it (see FailureText).
	text string
	// reason is what the user said when rejecting the call; "" for a
	// rejection without one, or no rejection.
	reason string
}

// outcome reads how the payload's call ended, for the platform named
// (see Platforms) and the hook event (PostToolUse or PostToolUseFailure).
// Each agent reports it its own way:
//
//   - Claude Code fires PostToolUseFailure with error ("Exit code 2\n…")
//     for a failed call, PostToolUse for a success or an exit it reads as
//     normal (grep 1); is_interrupt marks a call the user stopped.
//   - Codex fires PostToolUse for every exit, with the output text only;
//     the exit code is in the session's rollout file (codexExit). Where
//     that file does not say, a failure shows only where the text says so
//     ("Exit code: N", "Process exited with code N", a shell's "command
//     not found").
//   - Gemini CLI's AfterTool has "Exit Code: N" in tool_response.llmContent,
//     or tool_response.error {message, type} for a tool error.
//   - The opencode plugin sends tool.execute.after's output and metadata
//     (metadata.exit), and a PostToolUseFailure with the error of a tool
//     that threw, as its event hook sees it.
func (p *Payload) outcome(platform, event, command string) outcome {
	if lessons.KillTool(p.ToolName) {
		return outcome{} // the agent stopped a process on purpose
	}
	if event == "PostToolUseFailure" {
		if p.IsInterrupt {
			return outcome{} // the user stopped it: nothing went wrong
		}
		text := errorText(p.Error)
		if reason, ok := rejectionReason(text); ok {
			return outcome{reason: reason}
		}
		if strings.Contains(text, "Sibling tool call errored") || strings.Contains(text, "Cancelled: parallel tool call") {
			return outcome{} // another call of the batch failed, not this one
		}
		if lessons.CwdRecordFailed(text) {
			return outcome{} // the command succeeded; Claude Code's record of its directory failed after it
		}
		if code, ok := claudeExit(text); ok && !isFailure(code, command) {
			return outcome{} // an answer, as git config --get's 1
		}
		return failedWith(text)
	}
	switch platform {
	case "claude":
		return outcome{} // failures come as PostToolUseFailure
	case "gemini":
		var r struct {
			LLMContent json.RawMessage `json:"llmContent"`
			Error      *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(p.ToolResponse, &r)
		if r.Error != nil && strings.TrimSpace(r.Error.Message) != "" {
			return failedWith(r.Error.Message)
		}
		return fromText(partsText(r.LLMContent), command)
	case "codex":
		text := responseText(p.ToolResponse)
		if code, ok := codexExit(p.TranscriptPath, p.ToolUseID); ok {
			if !isFailure(code, command) {
				return outcome{}
			}
			return failedWith(text)
		}
		return fromText(text, command)
	case "opencode":
		var r struct {
			Output   string `json:"output"`
			Metadata struct {
				Exit *int `json:"exit"`
			} `json:"metadata"`
		}
		if json.Unmarshal(p.ToolResponse, &r) == nil && r.Metadata.Exit != nil {
			if !isFailure(*r.Metadata.Exit, command) {
				return outcome{}
			}
			return failedWith(r.Output)
		}
		return fromText(r.Output, command)
	}
	return fromText(responseText(p.ToolResponse), command)
}

// failedWith is a failure that printed text.
func failedWith(text string) outcome {
	return outcome{failed: true, errLine: firstTelling(text), text: FailureText(text)}
}

// Error triggers search at most maxFailureText bytes of what a call
// printed: its head and its tail, where tools put what went wrong (a
// usage line first, an exception last).
const (
	maxFailureText = 16 << 10
	failureHead    = 4 << 10
)

// FailureText caps what a failed call printed to its head and tail, cut
// on rune boundaries, with a line between them: the text error triggers
// search (replay searches a lesson's addresses in the same text).
func FailureText(text string) string {
	if len(text) <= maxFailureText {
		return text
	}
	head, tail := failureHead, len(text)-(maxFailureText-failureHead)
	for head > 0 && !utf8.RuneStart(text[head]) {
		head--
	}
	for tail < len(text) && !utf8.RuneStart(text[tail]) {
		tail++
	}
	return text[:head] + "\n[…]\n" + text[tail:]
}

// fromText reads a failure from a tool's output text: an exit status
// line, or a shell's own error.
func fromText(text, command string) outcome {
	if code, ok := exitLine(text); ok {
		if !isFailure(code, command) {
			return outcome{}
		}
		return failedWith(text)
	}
	for line := range strings.Lines(text) {
		for _, marker := range shellErrors {
			if strings.Contains(line, marker) {
				return outcome{failed: true, errLine: strings.TrimSpace(line), text: FailureText(text)}
			}
		}
	}
	return outcome{}
}

// shellErrors are what a shell prints when it refuses a command; the
// command never ran, whatever the exit status shown.
var shellErrors = []string{": command not found", "no matches found: ", "syntax error near unexpected token", "unexpected EOF while looking for matching"}

// exitLine finds an exit status line in a tool's output: Codex's
// "Exit code: N" and "Process exited with code N", Gemini CLI's "Exit
// Code: N", Go's and others' "exit status N".
func exitLine(text string) (int, bool) {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		for _, prefix := range []string{"Exit code: ", "Exit Code: ", "Process exited with code ", "exit status "} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
					return n, true
				}
			}
		}
	}
	return 0, false
}

// isFailure reads an exit status as the command means it: grep and rg 1
// is "no match", diff and cmp 1 "they differ", test and [ 1 "false".
func isFailure(code int, command string) bool {
	if code == 0 {
		return false
	}
	if lessons.KillStoppedItself(command, code) {
		return false // pkill -f that matched its own shell: the stop worked
	}
	if code == 1 {
		switch fam := lessons.CommandFamily(command); {
		case answers(fam.Exe):
			return false
		case fam.String() == "git config" && strings.Contains(command, "--get"),
			fam.String() == "git diff" && strings.Contains(command, "--exit-code"),
			fam.String() == "git diff" && strings.Contains(command, "--quiet"):
			return false
		}
	}
	return true
}

// claudeExit reads Claude Code's "Exit code N" first line.
func claudeExit(text string) (int, bool) {
	first, _, _ := strings.Cut(text, "\n")
	if rest, ok := strings.CutPrefix(strings.TrimSpace(first), "Exit code "); ok {
		n, err := strconv.Atoi(rest)
		return n, err == nil
	}
	return 0, false
}

// answers reports whether exe is a command whose exit status 1 is an
// answer, not an error. A switch, not a map built at init.
func answers(exe string) bool {
	switch exe {
	case "grep", "egrep", "fgrep", "rg", "ag", "diff", "cmp", "test", "[", "[[", "pgrep":
		return true
	}
	return false
}

// rejectionReason finds what the user said when rejecting a call, in the
// text each agent gives the model: Claude Code's "…the user said:\n…",
// opencode's "…with the following feedback: …".
func rejectionReason(text string) (string, bool) {
	for _, marker := range []string{"To tell you how to proceed, the user said:", "rejected permission to use this specific tool call with the following feedback:"} {
		if _, after, ok := strings.Cut(text, marker); ok {
			reason := strings.TrimSpace(after)
			return reason, reason != ""
		}
	}
	return "", false
}

// errorText reads an error given as a string (Claude Code, opencode) or
// as {message} (Gemini CLI).
func errorText(raw json.RawMessage) string {
	if s, ok := jsonString(raw); ok {
		return s
	}
	var e struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.Message
}

// responseText is the text of a tool_response given as a string or as an
// object with output fields.
func responseText(raw json.RawMessage) string {
	if s, ok := jsonString(raw); ok {
		return s
	}
	var r struct {
		Output     string          `json:"output"`
		Stdout     string          `json:"stdout"`
		Stderr     string          `json:"stderr"`
		LLMContent json.RawMessage `json:"llmContent"`
	}
	_ = json.Unmarshal(raw, &r)
	return strings.Join([]string{r.Output, r.Stdout, r.Stderr, partsText(r.LLMContent)}, "\n")
}

// partsText reads Gemini CLI's llmContent: a string, or parts with text.
func partsText(raw json.RawMessage) string {
	if s, ok := jsonString(raw); ok {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// firstTelling is the line of an error that says most: an exception
// line (Python's "KeyError: 'x'" after its traceback), else the first line
// naming an error ("npm ERR! missing script", "fatal: …", "No such file"),
// else the first line that is no exit status, timing, output header or
// rule of = or -. Gemini CLI's "Output: text" gives its text.
func firstTelling(text string) string {
	var first, marked string
	n := 0
	for line := range strings.Lines(text) {
		if n++; n > 400 {
			break
		}
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "Output: "); ok {
			line = strings.TrimSpace(rest)
		}
		if before, ok := lessons.SetupNoise(line); ok {
			line = before // the shell's start-up files, on every call
		}
		if line == "" || line == "(empty)" || isMetaLine(line) || isRule(line) {
			continue
		}
		if isExceptionLine(line) {
			return line
		}
		if first == "" {
			first = line
		}
		if marked == "" && namesError(line) {
			marked = line
		}
	}
	if marked != "" {
		return marked
	}
	return first
}

// isExceptionLine: "ValueError: …", "java.io.IOException: …".
func isExceptionLine(line string) bool {
	name, _, ok := strings.Cut(line, ": ")
	if !ok || strings.ContainsAny(name, " \t/") {
		return false
	}
	return strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception")
}

// errorWords mark a line that names what went wrong.
var errorWords = []string{"error", "err!", "fatal", "not found", "no such", "denied", "invalid", "unrecognized", "unknown",
	"cannot", "can't", "failed", "refused", "missing", "unexpected", "not allowed", "no matches"}

func namesError(line string) bool {
	l := strings.ToLower(line)
	for _, w := range errorWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// isRule: a line of = - _ * # ~ only, or a pytest banner made of them.
func isRule(line string) bool {
	trimmed := strings.Trim(line, "=-_*#~ ")
	return len(line)-len(trimmed) >= len(line)/2
}

func isMetaLine(line string) bool {
	for _, prefix := range []string{"Exit code", "Exit Code", "Process exited with code", "exit status", "Wall time", "Chunk ID", "Original token count", "Output:", "Command:", "Directory:", "Signal:", "Process Group PGID", "Traceback (most recent call last)", "$ "} {
		if strings.HasPrefix(line, prefix) {
			return true
		}
	}
	return false
}
