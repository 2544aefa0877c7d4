package scanner

import (
	"regexp"
	"strings"
)

// conflicted reports whether a failure is a merge conflict: two lines of
// work met (a merge, rebase, cherry-pick, stash pop or pull that stopped
// for the user to resolve). Resolving it is the work itself, not a
// mistake a lesson could have stopped, so it teaches no lesson on its
// error, no known failure and no precondition.
func conflicted(out string) bool {
	head := out[:min(len(out), conflictHead)]
	// most failures say none of these words: skip the regex for them
	if !strings.Contains(head, "ONFLICT") && !strings.Contains(head, "onflict") && !strings.Contains(head, "unmerged") &&
		!strings.Contains(head, "could not apply") && !strings.Contains(head, "needs merge") {
		return false
	}
	return conflictLine.MatchString(head)
}

// conflictHead is how much of an output conflicted reads: version
// control says so in its first lines.
const conflictHead = 8 << 10

// conflictLine matches what version control prints when it stops on a
// conflict: git's CONFLICT lines and hints, Mercurial's and the generic
// wording.
var conflictLine = regexp.MustCompile(`(?mi)^CONFLICT \(|automatic merge failed|\bmerge conflicts?\b|\bunresolved conflicts\b|^error: could not apply [0-9a-f]{7,}|you have unmerged (?:files|paths)|\bneeds merge$`)
