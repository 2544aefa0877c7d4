package scanner

import (
	"regexp"
	"slices"
	"strings"

	"github.com/lessons-dev/lessons"
)

// Steps of another tool. A tool other than the shell may fail for want
// of a state another tool sets: a browser tool with no page open until
// the navigate tool runs, a code tool with no project until one is
// activated, an API tool before a login. Such a call of another tool,
// between the failure and the same tool working, is a step before the
// call, as a shell command is for a failed shell call: a lesson on the
// error names it when the error names it, or when it was the one call
// of the failed tool's own server between and the error is about a
// state (stateError).

// toolStep reports whether a call that worked, of a tool other than the
// shell, is a step a failed tool call may have needed: another tool of
// its own MCP server, or one its error names; a file tool only on the
// failed call's own file ("File has not been read yet. Read it first":
// a Read of that file).
func toolStep(w *errWatch, c *Call) bool {
	f := w.rec.call
	switch {
	case f.Tool == "Bash" || c.Tool == f.Tool:
		return false
	case c.Path != "":
		return c.Path == f.Path && toolNamed(w.errText(), c.Tool)
	}
	return sameServer(f.Tool, c.Tool) || toolNamed(w.errText(), c.Tool)
}

// mcpServer is the server an MCP tool's name (mcp__server__tool) is of,
// or "".
func mcpServer(tool string) string {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return ""
	}
	server, _, ok := strings.Cut(rest, "__")
	if !ok {
		return ""
	}
	return server
}

// sameServer reports whether two tools are of one MCP server.
func sameServer(a, b string) bool {
	s := mcpServer(a)
	return s != "" && s == mcpServer(b)
}

// shortTool is a tool's name without its MCP server (browser_navigate).
func shortTool(tool string) string {
	if s := mcpServer(tool); s != "" {
		return strings.TrimPrefix(tool, "mcp__"+s+"__")
	}
	return tool
}

// toolNamed reports whether an error's text (lower case) names a tool:
// its short name as written or in words (browser_navigate, "browser
// navigate"), or the last of those words when it is a verb of five
// letters or more ("navigate to a page first").
func toolNamed(errText, tool string) bool {
	name := strings.ToLower(shortTool(tool))
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if len(name) >= 4 && containsWord(errText, name) || len(words) > 1 && containsWord(errText, strings.Join(words, " ")) {
		return true
	}
	last := ""
	if len(words) > 1 {
		last = words[len(words)-1]
	}
	return len(last) >= 5 && containsWord(errText, last) && stateError.MatchString(errText)
}

// stateError matches a tool's error about a state the call needed: none
// active, open or selected, or a step to take first.
var stateError = regexp.MustCompile(`(?i)\bno (?:active|open|current|selected|running|connected) \w+|\bnot (?:connected|initialized|open|selected|started|authenticated|logged in)\b|\b(?:call|use|run|open|navigate|select|create|start|activate|connect|initialize|log ?in|authenticate)\b[^.\n]{0,60}\bfirst\b`)

// toolStepsOf are the steps of another tool a lesson names for a
// failed tool call: those its error names, else the one call of the
// failed tool's own server between, when the error is about a state.
func toolStepsOf(w *errWatch, steps []*Call) []*Call {
	f := w.rec.call
	errText := w.errText()
	var named, server []*Call
	for _, s := range steps {
		switch {
		case s.Tool == "Bash" || s.Path != "" && s.Path != f.Path:
			return nil // a shell step or another file: not this kind
		case toolNamed(errText, s.Tool):
			named = append(named, s)
		case sameServer(f.Tool, s.Tool):
			server = append(server, s)
		}
	}
	switch {
	case len(named) > 0:
		return named[:min(len(named), maxNamedStep)]
	case len(server) == 1 && stateError.MatchString(errText):
		return server
	}
	return nil
}

// serviceTool reports whether a tool talks to a service of its own (an
// MCP server): its error nothing got past is the service's state (a
// login, a server not running, nothing selected), which the next
// session meets again, not the call's own input moved on from, as a
// file tool's is; nor do the task's edits of files get past it.
func serviceTool(tool string) bool { return mcpServer(tool) != "" }

// readFirst reports whether c, a call that worked of another tool than
// the failed file tool, writes the same file after the step its error
// asked for was taken (a Read of it): a Write refused as "not read yet",
// then the file read and edited, was got past by the edit.
func readFirst(w *errWatch, c *Call) bool {
	f := w.rec.call
	if f.Path == "" || c.Path != f.Path || !writing(f.Tool) || !writing(c.Tool) {
		return false
	}
	return slices.ContainsFunc(w.steps, func(s *Call) bool { return s.Path == f.Path && toolNamed(w.errText(), s.Tool) })
}

// writing reports whether a tool writes the file it is given (Write,
// Edit, MultiEdit, NotebookEdit and their kin in other agents).
func writing(tool string) bool { return slices.Contains(lessons.WritingTools, tool) }
