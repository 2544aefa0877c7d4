package scanner

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// newCall builds a Call from an agent's tool name and its raw JSON input,
// whatever the agent calls the fields.
func newCall(name string, input []byte) *Call {
	c := &Call{Tool: lessons.CanonicalTool(name)}
	if len(input) == 0 {
		return c
	}
	if input[0] == '"' { // Codex passes arguments as a JSON string
		input = []byte(str(input))
	}
	c.Sum = digest(input)
	f := fields(input, "command", "cmd", "file_path", "filePath", "path", "notebook_path",
		"absolute_path", "content", "new_string", "newString", "new_source", "edits", "input", "patch",
		"questions", "question", "plan", "workdir", "cwd", "dir_path", "directory", "patchText")
	if cmd := f[0]; cmd != nil {
		c.Command = shellCommand(cmd)
	} else if f[1] != nil {
		c.Command = shellCommand(f[1])
	}
	for _, p := range f[2:7] {
		if p != nil && p[0] == '"' {
			c.Path = str(p)
			break
		}
	}
	switch {
	case f[7] != nil:
		c.Input = str(f[7])
	case f[8] != nil:
		c.Input = str(f[8])
	case f[9] != nil:
		c.Input = str(f[9])
	case f[10] != nil:
		c.Input = str(f[10])
	case f[11] != nil && f[11][0] == '[':
		var parts []string
		eachElem(f[11], func(e []byte) {
			if s := field(e, "new_string"); s != nil {
				parts = append(parts, str(s))
			}
		})
		c.Input = strings.Join(parts, "\n")
	}
	if patch := firstString(f[12], f[13], f[21]); strings.Contains(patch, "*** Begin Patch") { // opencode's apply_patch: patchText
		applyPatch(c, patch)
	}
	if c.Tool == "apply_patch" && c.Input != "" {
		applyPatch(c, c.Input)
	}
	c.Asks = c.Command == "" && c.Path == "" && (f[14] != nil || f[15] != nil || f[16] != nil)
	c.Dir = firstString(f[17:21]...)
	switch {
	case input[0] != '{':
	case c.Command == "":
		c.Args = callArgs(input)
	default:
		c.Args = shellSettings(input)
	}
	if input[0] == '{' {
		processSettings(c, name, input)
		c.Passed = passedWords(c.Tool, input)
	}
	return c
}

// digest is a call's input, as Call.Sum holds it.
func digest(input []byte) uint64 {
	h := fnv.New64a()
	h.Write(input)
	return h.Sum64()
}

func firstString(raws ...[]byte) string {
	for _, r := range raws {
		if len(r) > 0 && r[0] == '"' {
			return str(r)
		}
	}
	return ""
}

// shellCommand reads a command given as a string or as an argv array; an
// array that runs a shell on a command line ([bash, -lc, script],
// [pwsh.exe, -NoLogo, -Command, script]) gives the command line.
func shellCommand(raw []byte) string {
	if raw[0] == '"' {
		return str(raw)
	}
	var argv []string
	if raw[0] != '[' || json.Unmarshal(raw, &argv) != nil {
		return ""
	}
	if cmd, ok := lessons.ShellArgvCommand(argv); ok {
		return cmd
	}
	return strings.Join(argv, " ")
}

// applyPatch makes a Codex apply_patch call an Edit (or a Write when it
// only adds a file) with the patch's first file and its added lines.
func applyPatch(c *Call, patch string) {
	c.Tool = "Edit"
	var added []string
	adds, updates := 0, 0
	for _, line := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(line, "*** Add File: "):
			adds++
			if c.Path == "" {
				c.Path = strings.TrimPrefix(line, "*** Add File: ")
			}
		case strings.HasPrefix(line, "*** Update File: "), strings.HasPrefix(line, "*** Delete File: "):
			updates++
			if c.Path == "" {
				_, c.Path, _ = strings.Cut(line, ": ")
			}
		case strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "+++"):
			added = append(added, line[1:])
		}
	}
	if adds > 0 && updates == 0 {
		c.Tool = "Write"
	}
	c.Input = strings.Join(added, "\n")
}

// Markers of a Claude Code rejection and the reason the user gave.
const (
	rejectedPrefix = "The user doesn't want to proceed with this tool use"
	rejectedTake   = "The user doesn't want to take this action right now"
)

var rejectionReasonMarkers = []string{
	"The user provided the following reason for the rejection:",
	"To tell you how to proceed, the user said:",
	"with the following feedback:", // opencode's CorrectedError
}

// rejection reports whether a tool output is a user's rejection, and the
// reason the user gave (empty when none).
func rejection(out string) (bool, string) {
	if !strings.HasPrefix(out, rejectedPrefix) && !strings.HasPrefix(out, rejectedTake) &&
		!strings.HasPrefix(out, "The user rejected permission to use this specific tool call") &&
		!strings.Contains(out[:min(len(out), 200)], "rejected by user") {
		return false, ""
	}
	for _, m := range rejectionReasonMarkers {
		if _, after, ok := strings.Cut(out, m); ok {
			return true, strings.TrimSpace(after)
		}
	}
	return true, ""
}

// exitCodeMarkers are how the formats print a command's exit status.
var exitCodeMarkers = [][]byte{
	[]byte("Exit code "), []byte("Process exited with code "), []byte("Exit code: "),
	[]byte("Exit Code: "), []byte(`"exit_code":`), []byte(`\"exit_code\":`),
}

// exitCode finds the exit status in the first bytes of a tool output, or
// returns -1.
func exitCode(out []byte) int {
	head := out[:min(len(out), 512)]
	for _, m := range exitCodeMarkers {
		if i := bytes.Index(head, m); i >= 0 {
			rest := head[i+len(m):]
			rest = bytes.TrimLeft(rest, " ")
			n, j := 0, 0
			for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' && j < 4 {
				n = n*10 + int(rest[j]-'0')
				j++
			}
			if j > 0 {
				return n
			}
		}
	}
	return -1
}

// timedOut reports whether a tool output says the tool timed out.
func timedOut(out string) bool {
	head := strings.ToLower(out[:min(len(out), 300)])
	return strings.Contains(head, "timed out") || strings.Contains(head, "timeout exceeded") ||
		strings.Contains(head, "deadline exceeded") || strings.Contains(head, "exceeding timeout")
}

// Bounds of the words kept of what a tool was given.
const (
	maxPassed      = 48       // words kept
	maxPassedInput = 16 << 10 // bytes of input read
)

// passedWords are, a line each, the distinct words (two bytes or more)
// of the string values a tool that is none of the canonical ones was
// given, up to maxPassed: an MCP tool's error often quotes them ("No
// matches found for ### Glassware — 12 items").
func passedWords(tool string, input []byte) string {
	if slices.Contains(lessons.CanonicalTools, tool) || len(input) > maxPassedInput {
		return ""
	}
	var v any
	if json.Unmarshal(input, &v) != nil {
		return ""
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			for _, w := range strings.Fields(v) {
				w = strings.Trim(w, "()[]{}<>,;:!?.\"'`")
				if len(out) < maxPassed && len(w) >= 2 && !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return strings.Join(out, "\n")
}
