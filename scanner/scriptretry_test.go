package scanner

import (
	"slices"
	"strings"
	"testing"
)

// TestScriptRewriteIsNoRetry: in two sessions an inline Python script
// opens a file under a guessed name and fails; the agent writes another
// script that finds the real name, passed with -c instead of a
// here-document, or run after a look around (ls). What changed is the
// script's code: no retry lesson says "add -c" or "run `ls` first".
func TestScriptRewriteIsNoRetry(t *testing.T) {
	failing := "cd /p/mibs && python3 <<'EOF'\nfor line in open('net_rstp.h'):\n    print(line)\nEOF"
	missing := "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: 'net_rstp.h'"
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run(failing, 1, missing),
		run("cd /p/mibs && python3 -c \"\nimport glob\nprint(glob.glob('net_*.h'))\n\"", 0, "['net_RSTP.h']"),
	})
	writeClaude(t, dir, "/p", "s2", []step{
		run(failing, 1, missing),
		run("cd /p/mibs && ls *.h && python3 <<'EOF'\nimport glob\nprint(glob.glob('net_*.h'))\nEOF", 0, "net_RSTP.h\n['net_RSTP.h']"),
	})
	for _, c := range reaching(t, dir) {
		if c.Kind == KindRetry && (strings.Contains(c.Summary, "add -c") || strings.Contains(c.Summary, "`ls")) {
			t.Errorf("retry %q: the script was rewritten, the flag or the look around is no fix", c.Summary)
		}
	}
	if got := summaries(reaching(t, dir)); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, KindRetry) }) {
		t.Errorf("retries %q, want none", got)
	}
}

// TestNoLessonThrowsWorkAway: in two sessions switching branches fails
// over local changes, and what got past it was `git checkout -- FILE`
// first, which threw the changes away. No lesson teaches that.
func TestNoLessonThrowsWorkAway(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("git checkout release", 1, "error: Your local changes to the following files would be overwritten by checkout:\n\tsrc/app.ts\nPlease commit your changes or stash them before you switch branches.\nAborting"),
			run("git checkout -- src/app.ts && git checkout release", 0, "Switched to branch 'release'"),
		})
	}
	for _, c := range reaching(t, dir) {
		if strings.Contains(c.Summary+c.Solution, "checkout -- ") {
			t.Errorf("%s %q (%s): a fix that throws the edits away is no lesson", c.Kind, c.Summary, c.Solution)
		}
	}
}
