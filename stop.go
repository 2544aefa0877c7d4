package lessons

// KillTool reports whether an agent's tool ends a background process on
// purpose: Claude Code's TaskStop, called KillShell and KillBash before
// 2.1 (its own alias table in the 2.1.332 bundle). Whatever its result
// says (the process was gone already), nothing failed.
func KillTool(name string) bool {
	return name == "TaskStop" || name == "KillShell" || name == "KillBash"
}

// StopSignal reports whether an exit status says a signal stopped the
// process: SIGHUP, SIGINT, SIGQUIT, SIGKILL or SIGTERM (128+n), not one
// that says it crashed (SIGSEGV, SIGABRT).
func StopSignal(code int) bool {
	switch code {
	case 129, 130, 131, 137, 143:
		return true
	}
	return false
}

// SignalExit reports whether an exit status says a signal ended the
// process (128+n), whatever the signal, but for SIGPIPE (141), which a
// pipeline's writer gets when its reader has read enough.
func SignalExit(code int) bool { return code > 128 && code < 160 && code != 141 }

// exitStatusWords are what the agents print before a call's exit
// status: Claude Code's "Exit code 144", Codex's "Exit code: 143" and
// "Process exited with code 143", Gemini CLI's "Exit Code: 137".
var exitStatusWords = []string{"Exit code ", "Exit code: ", "Exit Code: ", "Process exited with code "}

// exitStatusPattern finds exitStatusWords (ECMAScript).
const exitStatusPattern = `(?:Exit code:? |Exit Code: |Process exited with code )`

// KilledPattern finds, as an error trigger (ECMAScript), the status line
// of a call a signal ended (SignalExit), in the agents' words
// (exitStatusWords).
const KilledPattern = exitStatusPattern + `(?:129|13\d|140|14[2-9]|15\d)\b`

// KillStoppedItself reports whether a shell command a signal ended
// (SignalExit) was a kill that ended the shell running it as the line's
// last step (pkill -f matching its own command line): the stop worked,
// and nothing after it was lost.
func KillStoppedItself(command string, code int) bool {
	if !SignalExit(code) {
		return false
	}
	ss := segments(command)
	if len(ss) == 0 {
		return false
	}
	switch CommandFamily(ss[len(ss)-1].text).Exe {
	case "kill", "pkill", "killall":
		return true
	}
	return false
}
