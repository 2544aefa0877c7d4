package lessons

import "strconv"

// An interpreter given a script that fails and prints nothing did not run
// it: a real one says why it failed (a traceback, a stack, a syntax
// error). Windows' app execution alias for python3 exits 49 (9009 under
// cmd) with no word, every time, and so does a shim a removed version
// manager left behind; the next call of it fails the same way, whatever
// it is given.

// NoOutputClass is the class of a failed call that printed nothing but
// the agent's status line.
const NoOutputClass = "no output"

// SilentInterpreter reports whether exe runs scripts and is no shell, so
// that its failure with no output says it did not run: a shell's script
// fails silently by design (`bash -c "test -f x"`).
func SilentInterpreter(exe string) bool {
	return interpreter(exe) && shellKind(exe) == ""
}

// StatusOnlyPattern finds, as an error trigger (ECMAScript), an output
// that is only the agent's status line for exit status code (Claude
// Code's "Exit code 49", Codex's "Exit code: 49" under its "Wall time"
// and "Output:" lines, Gemini CLI's "Exit Code: 49"): a call that
// printed nothing and exited so.
func StatusOnlyPattern(code int) string {
	return `^\s*` + exitStatusPattern + strconv.Itoa(code) +
		`\s*(?:\n\s*(?:Wall time:? [^\n]*|Output:))*\s*$`
}
