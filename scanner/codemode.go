package scanner

import (
	"bytes"
	"regexp"
	"strings"
)

// Codex's code mode (Codex 0.144 and later, "functions.exec"): the model
// calls one tool, exec, whose input is a JavaScript cell that calls the
// other tools (tools.exec_command({cmd: "…", workdir: "…"}),
// tools.apply_patch(patch)), and whose output is what the cell printed
// under a status line: "Script completed", "Script failed" (the cell
// threw: "Script error:\n…") or "Script running with cell ID N" (a
// wait call reads the rest). A cell that runs one shell command is that
// command, and one that applies a patch is that edit: the reader makes
// them the calls they stand for, so that learning and replay see the
// shell commands of code-mode sessions as those of any other. A cell
// that runs several commands, or none, stays an exec call.
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
	switch n := strings.Count(js, "tools.exec_command("); {
	case n == 1:
		call := js[strings.Index(js, "tools.exec_command(")+len("tools.exec_command("):]
		cmd, ok := jsProperty(call, "cmd")
		if !ok || cmd == "" {
			return c
		}
		c.Tool, c.Command = "Bash", cmd
		c.Dir, _ = jsProperty(call, "workdir")
	case n == 0 && strings.Contains(js, "tools.apply_patch("):
		if i := strings.Index(js, "*** Begin Patch"); i > 0 {
			if patch, ok := jsString(js[i-1:]); ok {
				applyPatch(c, patch)
			}
		}
	}
	return c
}

// jsProperty is the string value of a property of the object literal
// that opens s (`cmd: "…"`, `"cmd": '…'`, a template with no
// substitution), unescaped; ok is false when the property is missing or
// its value is not such a literal (a variable, a template with ${…}).
func jsProperty(s, name string) (string, bool) {
	end := strings.IndexByte(s, ')')
	if end < 0 {
		end = len(s)
	}
	for _, key := range []string{name + ":", `"` + name + `":`, name + " :"} {
		i := strings.Index(s[:end], key)
		if i < 0 || i > 0 && isIdentByte(s[i-1]) {
			continue
		}
		return jsString(strings.TrimLeft(s[i+len(key):], " \t\r\n"))
	}
	return "", false
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
// cell still running: its outcome comes later, to a wait call.
func codeModeResult(out string) (r *Result, cell bool) {
	status, rest, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(status, "Script ") {
		return nil, false
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
		return nil, true
	case strings.HasPrefix(status, "Script failed"):
		return &Result{ExitCode: -1, IsError: true, Output: keepOutput(strings.TrimPrefix(body, "Script error:\n"))}, true
	}
	if b := []byte(strings.TrimSpace(body)); len(b) > 0 && b[0] == '{' {
		if f := fields(b, "exit_code", "output"); f[0] != nil {
			r := &Result{ExitCode: integer(f[0], -1)}
			if r.Failed() {
				r.Output = keepOutput(str(f[1]))
			}
			return r, true
		}
	}
	lower := strings.ToLower(body[:min(len(body), 200)])
	if shellSaid.MatchString(body) || len(body) <= 200 && (strings.HasPrefix(lower, "error") || strings.HasPrefix(lower, "fatal")) {
		return &Result{ExitCode: -1, IsError: true, Output: keepOutput(body)}, true
	}
	return &Result{}, true
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
