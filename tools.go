package lessons

import "path"

// CanonicalTools are the tool names lessons trigger on (Claude Code's).
// Other agents' tools map onto them through ToolAliases.
var CanonicalTools = []string{
	"Bash", "Read", "Edit", "Write", "MultiEdit", "Glob", "Grep",
	"NotebookEdit", "WebFetch", "WebSearch", "Task",
}

// ToolAliases maps other agents' tool names to canonical ones. Codex's
// apply_patch is absent: it is an Edit or a Write depending on the patch.
var ToolAliases = map[string]string{
	// Codex
	"shell": "Bash", "exec_command": "Bash", "local_shell": "Bash", "container.exec": "Bash",
	// Gemini CLI
	"run_shell_command": "Bash", "read_file": "Read", "read_many_files": "Read",
	"write_file": "Write", "replace": "Edit", "glob": "Glob", "grep_search": "Grep",
	"search_file_content": "Grep", "web_fetch": "WebFetch", "google_web_search": "WebSearch",
	// opencode
	"bash": "Bash", "read": "Read", "write": "Write", "edit": "Edit", "multiedit": "MultiEdit",
	"grep": "Grep", "webfetch": "WebFetch", "task": "Task", "patch": "Edit",
	// Claude Code's newer name for Task
	"Agent": "Task",
}

// WritingTools are the tools whose content triggers can see.
var WritingTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit"}

// FileTools are the tools whose path triggers can see.
var FileTools = []string{"Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep"}

// CanonicalTool maps an agent's tool name to the canonical one; unknown
// names (including mcp__ tools) pass through unchanged.
func CanonicalTool(name string) string {
	if c, ok := ToolAliases[name]; ok {
		return c
	}
	return name
}

// KnownTool reports whether a trigger's tool name or pattern can match a
// tool some agent uses: a canonical name, or an mcp__ name or pattern.
func KnownTool(name string) bool {
	for _, t := range CanonicalTools {
		if t == name {
			return true
		}
	}
	if len(name) > 5 && name[:5] == "mcp__" {
		return true
	}
	for _, t := range CanonicalTools {
		if ok, _ := path.Match(name, t); ok {
			return true
		}
	}
	return false
}
