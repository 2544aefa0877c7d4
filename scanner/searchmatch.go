package scanner

import (
	"regexp"

	"github.com/lessons-dev/lessons"
)

// A search command (grep, rg …) that fails with matches printed, its
// own error gone to stderr or thrown away (2>/dev/null), leaves a match
// as the first line that looks like a diagnostic ("src/a.rs:12: let x"):
// the file's text, not what went wrong. No lesson on the error, and no
// known failure, is keyed on such a line.

// keysError reports whether a failed shell command's error line, read
// from out, can key a lesson on the error or a known failure: it stands
// for what went wrong (lessons.StandsForError) and is no match of a
// search tool.
func keysError(fam lessons.Family, out, line string) bool {
	return lessons.StandsForError(out) && !searchMatch(fam, line)
}

// matchLine is a search tool's match or context line: a path, a line
// number, then ":" or "-".
var matchLine = regexp.MustCompile(`^\S+:\d+[:-]`)

// searchMatch reports whether the error line of a failed call of family
// fam is one of its matches: fam's program, or its subcommand (rtk grep,
// git grep), is a search tool. The shell's own error has the same shape
// when zsh names where it read the line ("(eval):1: command not found:
// rg"), and is no match.
func searchMatch(fam lessons.Family, line string) bool {
	line = lessons.StripANSI(line)
	return (searchTools[fam.Exe] || searchTools[fam.Sub]) && matchLine.MatchString(line) && !shellError.MatchString(line)
}

// searchTools are the programs that print matches as path:line:text.
var searchTools = map[string]bool{"grep": true, "rg": true, "egrep": true, "fgrep": true, "ag": true, "ack": true}
