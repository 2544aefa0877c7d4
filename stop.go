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
