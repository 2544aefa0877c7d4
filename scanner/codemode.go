package scanner

import (
	"bytes"
	"regexp"
	"strings"
)

// Codex's code mode (Codex 0.144 and later, "functions.exec"): the model
// calls one tool, exec, whose input is a JavaScript cell that calls the
// other tools (tools.exec_command({cmd: "…", workdir: "…"}), or
// tools.shell_command({command: "…"}) where the shell tool is that one,
// tools.apply_patch(patch)), and whose output is what the cell printed
// under a status line: "Script completed", "Script failed" (the cell
// threw: "Script error:\n…") or "Script running with cell ID N" (a
// wait call reads the rest). A cell that runs one shell command is that
// command, and one that applies a patch is that edit: the reader makes
// them the calls they stand for, so that learning and replay see the
// shell commands of code-mode sessions as those of any other. A cell
// that polls a command still running (tools.write_stdin({session_id:
// N})) is that poll: the exit status it prints is the polled command's,
// as a write_stdin call's is (codex.go). A cell that runs several
// commands, or none, stays an exec call.
//
// A cell prints what it chooses: JSON.stringify(r) holds the command's
// exit_code and output, text(r.output) only its output. With no exit
// code, a line the shell itself printed ("zsh:1: command not found: x")
// says the command failed, as does a short output that begins with an
// error; any other output of a completed cell is read as a success.

// codeModeTool is the name of Codex's code-mode tool.
const codeModeTool = "exec"

// maxCodeModeCell caps the bytes of a cell read for the calls it makes.
const maxCodeModeCell = 64 << 10

// codeModeCall is the call a code-mode cell stands for: a shell command,
// an apply_patch edit, or, for any other cell, the exec call itself.
func codeModeCall(src []byte) *Call {
	c := &Call{Tool: codeModeTool, Sum: digest(src)}
	js := str(src)
	if len(js) > maxCodeModeCell {
		return c
	}
	switch n := strings.Count(js, "tools.exec_command(") + strings.Count(js, "tools.shell_command("); {
	case n >= 1 && n <= maxCellCommands:
		// several commands at once (Promise.all) are read as the lines of
		// one script, as a failed chain is read: a failure is the first
		// that failed, and what it printed names which
		calls := cellCommands(js)
		var cmds []string
		for _, props := range calls {
			cmd, ok := shellProperty(props)
			if !ok || cmd == "" {
				return c
			}
			cmds = append(cmds, cmd)
		}
		c.Tool, c.Command = "Bash", strings.Join(cmds, "\n")
		c.Dir, _ = jsProperty(calls[0], "workdir")
		if len(calls) == 1 {
			c.Args = cellSettings(calls[0]) // one command's settings are the call's
		}
	case n == 0 && strings.Count(js, "tools.write_stdin(") == 1:
		props := jsObject(js[strings.Index(js, "tools.write_stdin(")+len("tools.write_stdin("):])
		sid, quoted := jsProperty(props, "session_id")
		if sid != "" && len(sid) <= maxSessionID && (quoted || strings.Trim(sid, "0123456789") == "") {
			chars, _ := jsProperty(props, "chars")
			c.Tool, c.Session, c.Stops = "write_stdin", sid, strings.ContainsAny(chars, stopChars)
		}
	case n == 0 && strings.Contains(js, "tools.apply_patch("):
		if i := strings.Index(js, "*** Begin Patch"); i > 0 {
			if patch, ok := jsString(js[i-1:]); ok {
				applyPatch(c, patch)
			}
		}
	}
	return c
}

// maxCellCommands caps the shell commands of a cell read as one call.
const maxCellCommands = 8

// cellCommands are the properties of each shell call a cell makes
// (tools.exec_command({cmd: …}), tools.shell_command({command: …})), in
// the order written; nil for one whose argument is no object literal.
func cellCommands(js string) [][]jsProp {
	var out [][]jsProp
	for i := 0; i < len(js); {
		j, call := strings.Index(js[i:], "tools."), ""
		if j < 0 {
			break
		}
		i += j
		for _, name := range []string{"tools.exec_command(", "tools.shell_command("} {
			if strings.HasPrefix(js[i:], name) {
				call = name
			}
		}
		if call == "" {
			i += len("tools.")
			continue
		}
		i += len(call)
		out = append(out, jsObject(js[i:]))
	}
	return out
}

// shellProperty is the command a shell call's properties give: exec_command's
// cmd, shell_command's command; ok is false when it is no string literal.
func shellProperty(props []jsProp) (string, bool) {
	if cmd, ok := jsProperty(props, "cmd"); ok {
		return cmd, true
	}
	return jsProperty(props, "command")
}

// jsObject reads the properties of the object literal that opens s
// (`{cmd: "…", "workdir": '…', login: false}`) as name and value pairs:
// a string literal's value unescaped, with ok true, and any other value
// (a variable, a number, true, a template with ${…}) as its source text
// with ok false. Reading stops at the object's end or at the first thing
// that is not a property, so a cell's later code is never read as one.
func jsObject(s string) []jsProp {
	s = strings.TrimLeft(s, " \t\r\n")
	if s == "" || s[0] != '{' {
		return nil
	}
	var props []jsProp
	for i := 1; i < len(s); {
		for i < len(s) && strings.IndexByte(" \t\r\n,", s[i]) >= 0 {
			i++
		}
		if i >= len(s) || s[i] == '}' {
			break
		}
		var key string
		if q := s[i]; q == '"' || q == '\'' {
			end := literalEnd(s, i)
			if end < 0 {
				break
			}
			key, i = s[i+1:end-1], end
		} else {
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			key, i = s[i:j], j
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if key == "" || i >= len(s) || s[i] != ':' {
			break
		}
		i++
		for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
			i++
		}
		end := valueEnd(s, i)
		if end < 0 {
			break
		}
		raw := strings.TrimRight(s[i:end], " \t\r\n")
		v, ok := jsString(raw)
		if !ok || literalEnd(raw, 0) != len(raw) {
			v, ok = raw, false
		}
		props = append(props, jsProp{key, v, ok})
		i = end
	}
	return props
}

// cellSettings are the settings a cell's shell call switches on besides
// its command, as shellSettings keeps them from a shell call's JSON
// input (sandbox_permissions: "require_escalated", a flag set to true).
func cellSettings(props []jsProp) string {
	var b strings.Builder
	for _, p := range props {
		val := p.value
		switch {
		case p.name == "cmd" || p.name == "command" || strings.ContainsFunc(p.name, notKeyRune):
			continue
		case !p.str && val != "true":
			continue
		case p.str && (len(val) > maxArgValue || !settingWord(val)):
			continue
		}
		if b.Len()+len(p.name)+len(val)+2 > maxArgs {
			break
		}
		b.WriteString(p.name + "=" + val + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// A jsProp is one property of an object literal; str says its value was
// a string literal.
type jsProp struct {
	name, value string
	str         bool
}

// jsProperty is the string value of the property called name.
func jsProperty(props []jsProp, name string) (string, bool) {
	for _, p := range props {
		if p.name == name {
			return p.value, p.str
		}
	}
	return "", false
}

// literalEnd is the index just past the string literal that starts at
// s[i], or -1 when it does not end.
func literalEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return -1
}

// valueEnd is the index of the ',' or '}' that ends the value starting at
// s[i], past any string literal and any bracketed part, or -1.
func valueEnd(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; c {
		case '"', '\'', '`':
			end := literalEnd(s, j)
			if end < 0 {
				return -1
			}
			j = end - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if c == '}' {
					return j
				}
				return -1
			}
			depth--
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// jsString reads the string literal s begins with: "…", '…' or `…`
// without ${…}, its escapes decoded as JSON's (\' and \` stand for
// themselves).
func jsString(s string) (string, bool) {
	if s == "" || s[0] != '"' && s[0] != '\'' && s[0] != '`' {
		return "", false
	}
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			inner := s[1:i]
			if q == '`' && strings.Contains(inner, "${") {
				return "", false
			}
			return unquote([]byte(inner)), true
		}
	}
	return "", false
}

// codeModeResult reads a code-mode cell's output (its text parts,
// joined); cell is false when the output is not one, and r is nil for a
// cell still running: its outcome comes later, to a wait call. running
// is the session of a command the cell left running (it printed the
// result with a session_id and no exit_code): its outcome comes later,
// to a poll.
func codeModeResult(out string) (r *Result, running string, cell bool) {
	status, rest, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(status, "Script ") {
		return nil, "", false
	}
	body := rest
	for _, head := range []string{"Wall time ", "Output:"} {
		if strings.HasPrefix(body, head) {
			_, body, _ = strings.Cut(body, "\n")
		}
	}
	body = strings.TrimPrefix(body, "\n")
	switch {
	case strings.HasPrefix(status, "Script running"):
		return nil, "", true
	case strings.HasPrefix(status, "Script failed"):
		return &Result{ExitCode: -1, IsError: true, Output: keepOutput(strings.TrimPrefix(body, "Script error:\n"))}, "", true
	}
	if strings.HasPrefix(body, "Exit code: ") {
		// a shell_command's result printed as it is: "Exit code: N",
		// "Wall time: …", "Output:" and the command's output
		r := &Result{ExitCode: exitCode([]byte(body))}
		if r.ExitCode != 0 {
			r.keep(body)
		}
		return r, "", true
	}
	if b := []byte(strings.TrimSpace(body)); len(b) > 0 && b[0] == '{' {
		f := fields(b, "exit_code", "output", "session_id")
		if f[0] != nil {
			r := &Result{ExitCode: integer(f[0], -1)}
			r.keep(str(f[1]))
			return r, "", true
		}
		if sid := scalar(f[2]); sid != "" {
			return nil, sid, true
		}
	}
	lower := strings.ToLower(body[:min(len(body), 200)])
	if shellSaid.MatchString(body) || len(body) <= 200 && (strings.HasPrefix(lower, "error") || strings.HasPrefix(lower, "fatal")) {
		return &Result{ExitCode: -1, IsError: true, Output: keepOutput(body)}, "", true
	}
	return &Result{}, "", true
}

// shellSaid is a line a shell printed about a command it could not run
// ("zsh:1: command not found: x", "/bin/bash: line 1: go: command not
// found", "sh: 1: x: not found").
var shellSaid = regexp.MustCompile(`(?m)^(?:\S*/)?(?:ba|z|da)?sh:(?: line \d+:|\d+:)? \S`)

// codeModeOutput is the text of a code-mode cell's output: its parts
// joined, or "" when out is not an array of parts.
func codeModeOutput(out []byte) string {
	if len(out) == 0 || out[0] != '[' || !bytes.Contains(out[:min(len(out), 200)], []byte("Script ")) {
		return ""
	}
	return text(out)
}
