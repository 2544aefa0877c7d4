package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestErrorSummaryOfALongPath: the sandbox refused a write under a long
// path; the lesson's summary keeps what went wrong after the path
// (Permission denied) and the path's last names, not the path's start.
func TestErrorSummaryOfALongPath(t *testing.T) {
	fail := "fatal: Unable to create '/Users/dana/Documents/Projects/client-work/acme-portal/.git/index.lock': Permission denied"
	dir := t.TempDir()
	writeCodex(t, dir, "/Users/dana/Documents/Projects/client-work/acme-portal", "c1", []cxStep{
		execCmd(map[string]any{"cmd": "git add src/app.ts"}, 128, fail),
		execCmd(map[string]any{"cmd": "git add src/app.ts", "sandbox_permissions": "require_escalated"}, 0, ""),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	s := cs[0].Summary
	if len(s) > maxSummary || !strings.Contains(s, "…/.git/index.lock") || !strings.Contains(s, "Permission denied") {
		t.Errorf("summary %q: want the path's last names and the error after it", s)
	}
}

// TestErrorSummaryKeepsTheError: a refusal's head names what refused and
// what failed; the error after it is cut to the room left, never to the
// program's name alone ("… (`rm`): rm").
func TestErrorSummaryKeepsTheError(t *testing.T) {
	fail := "rm: cannot remove 'build/generated sources/android app/intermediates': Operation not permitted"
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("rm -rf build", 1, fail),
		call("Bash", map[string]any{"command": "rm -rf build", "dangerouslyDisableSandbox": true}, false, ""),
	})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	if s := cs[0].Summary; !strings.Contains(s, "rm: cannot remove") || len(s) > maxSummary {
		t.Errorf("summary %q: want the error's words after the head, within %d bytes", s, maxSummary)
	}
}

// An MCP tool's error that quotes what the call was given ("No matches
// found for" the heading it was asked to replace) keys a lesson on the
// error's own words, so that it comes after the next such failure,
// whatever that call's heading; a canonical tool's input is not read so.
func TestErrorTriggerLeavesOutWhatTheToolWasGiven(t *testing.T) {
	tool := "mcp__notion__notion-update-page"
	input := `{"page_id":"2a1f","data":{"command":"update_content","old_str":"### Glassware (new) — 12 items\n| a | b |","new_str":"x"}}`
	line := `No matches found for ### Glassware (new) — 12 items`
	tr, _, ok := errorTrigger(tool, "", line, lessons.ErrorClass(line), lessons.Family{}, passedWords(tool, []byte(input)))
	if !ok || len(tr.Errors) != 1 {
		t.Fatalf("errorTrigger = %+v, %v; want an error trigger", tr, ok)
	}
	re, err := lessons.CompilePattern(tr.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString("No matches found for ## Stock levels — summary"); !ok {
		t.Errorf("error trigger %q misses the same failure on another heading", tr.Errors[0])
	}
	if w := passedWords("Edit", []byte(`{"file_path":"a.go","old_string":"x y","new_string":"z"}`)); w != "" {
		t.Errorf("passedWords(Edit) = %q, want none", w)
	}
}
