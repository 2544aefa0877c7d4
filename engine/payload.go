package engine

import (
	"encoding/json"
	"path"
	"path/filepath"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// Payload is what an agent sends a hook on stdin: Claude Code's shape,
// which Codex and the opencode plugin share and Gemini CLI nearly does.
type Payload struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	// Source is why a session starts: startup, resume, clear or compact.
	Source string `json:"source"`
	// Prompt is the user's text in UserPromptSubmit.
	Prompt string `json:"prompt"`
	// Antigravity CLI's camelCase fields (see antigravity.go).
	antigravityFields

	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
	// Timestamp is set by Gemini CLI only, TurnID by Codex only: they
	// tell the agents apart when no platform is named.
	Timestamp string `json:"timestamp"`
	TurnID    string `json:"turn_id"`
	// ToolResponse, Error and IsInterrupt say how a call ended, in each
	// agent's own shape (see outcome.go).
	ToolResponse json.RawMessage `json:"tool_response"`
	Error        json.RawMessage `json:"error"`
	IsInterrupt  bool            `json:"is_interrupt"`
}

// toolInput holds the tool_input fields triggers read, across tools and
// agents: Claude Code's and Gemini CLI's snake_case, opencode's
// camelCase.
type toolInput struct {
	Command      json.RawMessage `json:"command"`
	Cmd          json.RawMessage `json:"cmd"` // Codex's exec_command
	FilePath     string          `json:"file_path"`
	FilePathCC   string          `json:"filePath"`
	Path         string          `json:"path"`
	DirPath      string          `json:"dir_path"`      // Gemini's grep_search, glob
	AbsolutePath string          `json:"absolute_path"` // older Gemini read_file
	NotebookPath string          `json:"notebook_path"`
	Paths        []string        `json:"paths"` // Gemini's read_many_files
	Content      string          `json:"content"`
	NewString    string          `json:"new_string"`
	NewStringCC  string          `json:"newString"`
	NewSource    string          `json:"new_source"`
	PatchText    string          `json:"patchText"` // opencode's apply_patch
	// How the agent's tool runs a shell command (see background).
	RunInBackground json.RawMessage `json:"run_in_background"` // Claude Code's Bash
	IsBackground    json.RawMessage `json:"is_background"`     // Gemini CLI's run_shell_command
	TimeoutMs       json.RawMessage `json:"timeout_ms"`        // Codex's one-shot exec_command
	Edits           []struct {
		NewString   string `json:"new_string"`
		NewStringCC string `json:"newString"`
	} `json:"edits"`
}

// Call turns a PreToolUse payload into the call triggers see: canonical
// tool name, command, absolute paths and written text. Codex's
// apply_patch becomes a Write (only new files) or an Edit, with the
// patch's files as paths and its added lines as content.
func (p *Payload) Call() (Call, error) {
	c := Call{Tool: lessons.CanonicalTool(p.ToolName)}
	var in toolInput
	if len(p.ToolInput) > 0 && string(p.ToolInput) != "null" {
		if err := decodeToolInput(p.ToolInput, &in); err != nil {
			return Call{}, err
		}
	}
	command := commandText(in.Command)
	if command == "" {
		command = commandText(in.Cmd)
	}
	if in.PatchText != "" {
		command = in.PatchText
	}
	if p.ToolName == "apply_patch" || in.PatchText != "" || c.Tool == "Bash" && isPatchCommand(command) {
		tool, paths, contents := parsePatch(command)
		c = Call{Tool: tool, Paths: paths, Contents: contents}
	} else {
		c.Command = command
		c.Background = c.Tool == "Bash" && p.background(&in)
		for _, path := range append([]string{in.FilePath, in.FilePathCC, in.Path, in.DirPath, in.AbsolutePath, in.NotebookPath}, in.Paths...) {
			if path != "" {
				c.Paths = append(c.Paths, path)
			}
		}
		for _, text := range []string{in.Content, in.NewString, in.NewStringCC, in.NewSource} {
			if text != "" {
				c.Contents = append(c.Contents, text)
			}
		}
		for _, e := range in.Edits {
			for _, text := range []string{e.NewString, e.NewStringCC} {
				if text != "" {
					c.Contents = append(c.Contents, text)
				}
			}
		}
	}
	for i, f := range c.Paths {
		c.Paths[i] = CallPath(p.Cwd, f)
	}
	return c, nil
}

// CallPath is a call's path as triggers see it: joined to the session's
// folder cwd when it is relative, with slashes. A Windows path (C:\src\a.py, \\host\share)
// reads as one wherever the hook or a replay of a Windows history runs:
// filepath knows it only on Windows.
func CallPath(cwd, p string) string {
	if abs := windowsPath(p); abs || (windowsPath(cwd) && !filepath.IsAbs(p)) {
		p = strings.ReplaceAll(p, `\`, "/")
		if !abs {
			p = path.Join(strings.ReplaceAll(cwd, `\`, "/"), p)
		}
		return p
	}
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	return filepath.ToSlash(p)
}

// windowsPath reports whether p starts with a drive (C:\, C:/) or is a
// network path (\\host).
func windowsPath(p string) bool {
	if strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

// background reports whether the agent's tool runs the shell call
// without waiting for it to exit, by its own settings (the installed
// bundles' schemas): Claude Code's Bash with run_in_background: true,
// Gemini CLI's run_shell_command with is_background: true, and Codex's
// exec_command, which hands back a session to poll (write_stdin) once
// the command outlives its yield_time_ms. Codex's hooks name that tool
// Bash with the command alone; its one-shot form, which runs to its
// timeout_ms, and the older shell tool, which takes the command as an
// argv array, wait. opencode's bash always waits.
func (p *Payload) background(in *toolInput) bool {
	switch {
	case string(in.RunInBackground) == "true", string(in.IsBackground) == "true":
		return true
	case p.ToolName == "exec_command", p.TurnID != "" && p.ToolName == "Bash":
		_, text := jsonString(in.Command)
		return len(in.TimeoutMs) == 0 && (text || len(in.Command) == 0 && len(in.Cmd) > 0)
	}
	return false
}

// commandText reads a command given as a string or, as Codex's older
// shell tool sends it, as an argv array: one that runs a shell on a
// command line (["bash", "-lc", "script"], ["pwsh.exe", "-NoLogo",
// "-Command", "script"]) is the command line, any other its words joined.
func commandText(raw json.RawMessage) string {
	if s, ok := jsonString(raw); ok {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) != nil {
		return ""
	}
	if cmd, ok := lessons.ShellArgvCommand(argv); ok {
		return cmd
	}
	return strings.Join(argv, " ")
}

const patchBegin = "*** Begin Patch"

// isPatchCommand reports whether a shell command is an apply_patch
// invocation carrying the patch inline.
func isPatchCommand(cmd string) bool {
	return strings.HasPrefix(strings.TrimSpace(cmd), "apply_patch") && strings.Contains(cmd, patchBegin)
}

// parsePatch reads a Codex patch: its files ("*** Add File:", "*** Update
// File:", "*** Delete File:", "*** Move to:") and, per file, the lines it
// adds. Only added files make it a Write.
func parsePatch(patch string) (tool string, paths, contents []string) {
	onlyAdds := true
	var added strings.Builder
	flush := func() {
		if added.Len() > 0 {
			contents = append(contents, strings.TrimSuffix(added.String(), "\n"))
			added.Reset()
		}
	}
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if rest, ok := strings.CutPrefix(line, "*** "); ok {
			for _, h := range []string{"Add File: ", "Update File: ", "Delete File: ", "Move to: "} {
				if name, ok := strings.CutPrefix(rest, h); ok {
					if h != "Move to: " {
						flush()
					}
					if h != "Add File: " {
						onlyAdds = false
					}
					paths = append(paths, strings.TrimSpace(name))
				}
			}
			continue
		}
		if text, ok := strings.CutPrefix(line, "+"); ok && len(paths) > 0 {
			added.WriteString(text)
			added.WriteByte('\n')
		}
	}
	flush()
	if onlyAdds && len(paths) > 0 {
		return "Write", paths, contents
	}
	return "Edit", paths, contents
}
