package scanner

import (
	"slices"
	"strings"
)

// A failure that comes with the checkout or the environment does not
// name what the call was given. One whose error line names a value the
// command passed (a field it asked for, 'reviewThreads'; a folder it
// searched, "rg: tests: No such file or directory"; a target, make's
// "No rule to make target 'tset'") is the call's mistake, made again in
// the next session because the agent asked the same wrong thing: no
// known failure, whatever a lesson on its error says.

// namesCallValue reports whether an error line names, in quotes or as a
// word before a colon, a word the command passed after its program.
func namesCallValue(line, cmd string) bool {
	words := callWords(cmd)
	if len(words) == 0 {
		return false
	}
	for _, q := range quotedValue.FindAllStringSubmatch(line, 4) {
		if v := q[1] + q[2]; len(v) >= 3 && slices.Contains(words, v) {
			return true
		}
	}
	fields := strings.Fields(line)
	for _, f := range fields[min(1, len(fields)):] { // past the program's own name ("rg: …")
		if v, ok := strings.CutSuffix(f, ":"); ok && len(v) >= 3 && slices.Contains(words, v) {
			return true
		}
	}
	return false
}

// callWords are the words a shell command passes after its program
// (each simple command's first word left out), and the items of their
// comma-separated lists.
func callWords(cmd string) []string {
	var out []string
	for _, seg := range segments(cmd) {
		for _, w := range seg[min(1, len(seg)):] {
			if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
				w = v
			}
			w = strings.Trim(w, `'"`)
			out = append(out, w)
			if strings.Contains(w, ",") {
				out = append(out, strings.Split(w, ",")...)
			}
		}
	}
	return out
}
