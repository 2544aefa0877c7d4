package scanner

import (
	"slices"
	"strings"
)

// Which steps between a failure and the same call working may have got
// past it: a lesson on the error names them as what to do first (onerror.go
// namedSteps), so a step that only did the task's own work, or another
// tool's, must not be named for an error it did not touch.

// taskStep reports whether a step between a failure and the same call
// working is the task's rather than a setup of the world: a shell
// command that installs, builds, syncs or starts nothing (another tool's
// check, a look at a file, a file removed), and is not the failed
// command's own tool in another mode (variantOf). An error about the
// world that only such steps came before was got past by something else.
func taskStep(c, failed *Call) bool {
	return c.Tool == "Bash" && !settingUp(c.Command) && !variantOf(c, failed)
}

// variantOf reports whether a step runs the failed command's own tool
// or script in another mode: the same executable and subcommand, with a
// word that holds one of the failed command's words (lint:fix after
// lint).
func variantOf(step, failed *Call) bool {
	fseg, sseg := firstSegment(failed.Command), firstSegment(step.Command)
	if len(fseg) == 0 || len(sseg) == 0 || slices.Equal(fseg, sseg) {
		return false
	}
	fexe, fsub := commandHead(fseg)
	if exe, sub := commandHead(sseg); exe != fexe || sub != fsub {
		return false
	}
	for _, f := range fseg {
		if len(f) < 3 || strings.HasPrefix(f, "-") || f == fexe || f == fsub || strings.ContainsAny(f, "<>/") {
			continue
		}
		if slices.ContainsFunc(sseg, func(s string) bool { return s != f && strings.Contains(s, f) }) {
			return true
		}
	}
	return false
}
