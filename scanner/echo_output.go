package scanner

import "strings"

// minEchoed is the shortest output line read as the command's own text:
// shorter ones ("done", "ok") are as likely the program's words.
const minEchoed = 8

// maxEchoSource is how much of a command its output's lines are looked
// for in.
const maxEchoSource = 64 << 10

// withoutEcho drops the lines of a failed shell call's output that are
// the command's own text printed back: a banner it echoed between steps
// (`echo "=== tests ==="`), a commit message, a script's own message. No
// program prints its error as the line the agent wrote, so such a line is
// never what went wrong, and a lesson keyed on it would come after any
// failure of a command that prints it. An output of nothing else is kept
// whole: what failed is then not in it either way.
func withoutEcho(out, command string) string {
	command = command[:min(len(command), maxEchoSource)] // every line is looked for in it: a script of megabytes costs no more
	if len(command) < minEchoed || !strings.Contains(out, "\n") {
		return out // one line: dropped, nothing would be left
	}
	var keep []string
	dropped, left := false, false
	for _, l := range strings.Split(out, "\n") {
		if echoed(l, command) {
			dropped = true
			continue
		}
		keep = append(keep, l)
		left = left || strings.TrimSpace(l) != ""
	}
	if !dropped || !left {
		return out
	}
	return strings.Join(keep, "\n")
}

// echoed reports whether line, trimmed, is long enough and is text of
// the command.
func echoed(line, command string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= minEchoed && strings.Contains(command, t)
}

// unecho drops what a failed shell call's output echoes of its command
// (withoutEcho), once: replay's log and the analyzer read one Result.
func unecho(call *Call, r *Result) {
	if r.unechoed || call == nil || call.Tool != "Bash" || !r.Failed() {
		return
	}
	r.unechoed = true
	if out := withoutEcho(r.Output, call.Command); out != r.Output {
		r.Output, r.trimmed = out, nil
	}
}
