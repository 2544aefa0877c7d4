package scanner

import "regexp"

// A poll that finds the thing it waits for not done yet ("run 123 is
// still in progress; logs will be available when it is complete", "the
// job is still queued") exits non-zero with nothing gone wrong: the
// agent waits and asks again, or the command cannot give what it was
// asked until then. That comes with no checkout: no known failure is
// keyed on such a line ("fails before any change … do not revert"); a
// lesson on the error may still say it came before.

// stillWaiting matches a line that says what was asked about is not done
// yet.
var stillWaiting = regexp.MustCompile(`(?i)\bstill\s+(?:in\s+progress|running|pending|queued|processing|being\s+processed)\b|\bhas\s+not\s+(?:yet\s+)?(?:completed|finished)\b|\bnot\s+(?:yet\s+)?(?:completed|finished)\s+yet\b`)

// notDoneYet reports whether an error line only says a run is not done yet.
func notDoneYet(line string) bool { return stillWaiting.MatchString(line) }
