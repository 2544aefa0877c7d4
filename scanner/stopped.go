package scanner

import (
	"strings"

	"github.com/lessons-dev/lessons"
)

// A process the agent stopped on purpose did not fail. Agents run long
// commands (dev servers, watchers, a hanging check) as processes they
// poll and end themselves: Codex's exec_command hands back a session
// that write_stdin polls or interrupts (chars "\u0003" is Ctrl-C), Claude
// Code's Bash runs with run_in_background and its kill tool (TaskStop,
// once KillShell and KillBash) ends it, and any agent can kill or pkill a
// process it started. The exit status that follows (130 after Ctrl-C,
// 143 after a kill, "not running" from the kill tool) reads as a
// failure, but nothing went wrong that a lesson could prevent: such a
// result is Stopped, and a logged call with it has OutcomeStopped. A
// timeout or the user's interrupt stays what it is.

// stopChars are the control characters that stop a process written to
// its terminal: Ctrl-C (SIGINT) and Ctrl-\ (SIGQUIT).
const stopChars = "\x03\x1c"

// maxSessionID caps the session id kept from a log.
const maxSessionID = 64

// processSettings reads what a call's input says of the process it runs
// or acts on: a write_stdin's session and whether it stops the process,
// the kill tool, and whether a shell call runs in the background.
func processSettings(c *Call, name string, input []byte) {
	f := fields(input, "session_id", "chars", "run_in_background", "is_background", "timeout_ms")
	switch {
	case lessons.KillTool(name):
		c.Stops = true
	case name == "write_stdin":
		c.Session = scalar(f[0])
		c.Stops = strings.ContainsAny(str(f[1]), stopChars)
	case c.Tool != "Bash":
	case name == "exec_command":
		c.Background = f[4] == nil // the one-shot form runs to its timeout_ms
	default:
		c.Background = isTrue(f[2]) || isTrue(f[3])
	}
}

// scalar is a short raw JSON string or number as text, "" for anything
// else.
func scalar(raw []byte) string {
	var s string
	switch {
	case len(raw) == 0:
	case raw[0] == '"':
		s = str(raw)
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		s = string(raw)
	}
	if len(s) > maxSessionID {
		return ""
	}
	return s
}

// killsProcess reports whether a shell command ends processes: kill,
// pkill, killall, or fuser -k, alone or fed by xargs.
func killsProcess(cmd string) bool { return killer(cmd) != nil }

// killer is the first simple command of a shell command that ends
// processes (killsProcess), or nil.
func killer(cmd string) []string {
	if !strings.Contains(cmd, "kill") && !strings.Contains(cmd, "fuser") {
		return nil
	}
	for _, seg := range segments(cmd) {
		exe, _ := commandHead(seg)
		switch exe {
		case "kill", "pkill", "killall":
			return seg
		case "fuser":
			for _, w := range seg {
				if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsRune(w, 'k') {
					return seg
				}
			}
		}
	}
	return nil
}

// killFamily is the family of a shell call that ended its own shell
// (selfKill): its kill's, whatever else the line ran; ok is false for
// another call.
func killFamily(c *Call, exitCode int) (f lessons.Family, ok bool) {
	if c.Tool != "Bash" || c.Session != "" || !lessons.SignalExit(exitCode) {
		return f, false
	}
	seg := killer(c.Command)
	if seg == nil {
		return f, false
	}
	return lessons.CommandFamily(strings.Join(seg, " ")), true
}

// processes remembers, for one session log, when the agent last stopped
// a process.
type processes struct {
	// stop is the seq of the last call that stopped or killed a process.
	stop int
}

// called notes a call: one that stops a process, or kills one.
func (p *processes) called(c *Call, seq int) {
	if c != nil && (c.Stops || c.Tool == "Bash" && killsProcess(c.Command)) {
		p.stop = seq
	}
}

// stopped reports whether a call's result is the end of a process the
// agent stopped on purpose, and marks the result so: the result of a
// call that stops a process (Ctrl-C, the kill tool: "not running" is no
// failure either; the Codex reader marks a command whose poll was a
// Ctrl-C), and a command or a poll of one that ended by a stop signal
// after the agent stopped or killed a process since the call started
// (a kill that ended by one as its line's last step: pkill -f matching
// the shell that runs it).
func (p *processes) stopped(rec *callRec, r *Result) bool {
	if r.Stopped {
		return true
	}
	c := rec.call
	switch {
	case c == nil, r.Timeout:
	case c.Stops:
		r.Stopped = r.Failed()
	case selfKill(c, r) && p.stop <= rec.seq:
		// the kill ended the shell that ran it (pkill -f matching its
		// own command line), not a later stop: a stop that worked when
		// it was the line's last step; a failure when steps after it
		// never ran
		r.Stopped = killsLast(c.Command)
	case c.Session != "", c.Tool == "Bash":
		r.Stopped = lessons.StopSignal(r.ExitCode) && (p.stop > rec.seq || c.Session != "" && p.stop > 0)
	}
	return r.Stopped
}

// selfKill reports whether a shell call that ends processes was ended by
// a signal itself: it killed the shell that ran it (pkill -f, whose
// pattern matched that shell's command line).
func selfKill(c *Call, r *Result) bool {
	_, ok := killFamily(c, r.ExitCode)
	return ok
}

// killsLast reports whether a shell command's last step is the one that
// ends processes: nothing of the line comes after it.
func killsLast(cmd string) bool {
	ss := segments(cmd)
	return len(ss) > 0 && killsProcess(strings.Join(ss[len(ss)-1], " "))
}
