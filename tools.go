package lessons

import (
	"path"
	"slices"
)

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
	"shell": "Bash", "shell_command": "Bash", "exec_command": "Bash", "local_shell": "Bash", "container.exec": "Bash",
	// Gemini CLI
	"run_shell_command": "Bash", "read_file": "Read", "read_many_files": "Read",
	"write_file": "Write", "replace": "Edit", "glob": "Glob", "grep_search": "Grep",
	"search_file_content": "Grep", "web_fetch": "WebFetch", "google_web_search": "WebSearch",
	"invoke_agent": "Task", // its subagent tool (0.61)
	// Antigravity CLI (agy); its grep_search is Gemini CLI's
	"run_command": "Bash", "view_file": "Read", "write_to_file": "Write", "replace_file_content": "Edit",
	"multi_replace_file_content": "MultiEdit", "edit_file": "Edit", "find_by_name": "Glob",
	"read_url_content": "WebFetch", "search_web": "WebSearch",
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

// ImpliedTools are the canonical tools a trigger can match, sorted: its
// own tools (aliases mapped, patterns such as mcp__x__* kept), or else the
// tools every kind it sets implies (commands: Bash; content: WritingTools;
// paths: FileTools), intersected, since every kind must match. A trigger
// that can match no tool call has none.
func (t *Trigger) ImpliedTools() []string {
	var out []string
	if len(t.Tools) > 0 {
		for _, name := range t.Tools {
			out = append(out, CanonicalTool(name))
		}
	} else {
		first := true
		for _, k := range []struct {
			set   bool
			tools []string
		}{
			{len(t.Commands) > 0, []string{"Bash"}},
			{len(t.Content) > 0, WritingTools},
			{len(t.Paths) > 0, FileTools},
		} {
			switch {
			case !k.set:
			case first:
				out, first = slices.Clone(k.tools), false
			default:
				out = slices.DeleteFunc(out, func(s string) bool { return !slices.Contains(k.tools, s) })
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
