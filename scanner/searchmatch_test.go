package scanner

import (
	"strings"
	"testing"
)

// TestNoLessonOnASearchMatch: a search that failed on a path that does
// not exist, its error thrown away (2>/dev/null), printed only matches;
// the first looks like a diagnostic ("src/eval.rs:12: let …") and was
// taken for the error: a known failure and lessons on the error were
// keyed on the text of a file. The same failure with rg's own error line
// still gives one, as does a line of that shape from no search tool.
func TestNoLessonOnASearchMatch(t *testing.T) {
	dir := t.TempDir()
	matches := "src/eval.rs:12:    let evaluator = Evaluator::new(ctx);\nsrc/eval.rs:40:    evaluator.run()?;\nsrc/lua.rs:3:use mlua::Lua;\nsrc/lua.rs:9:    let lua = Lua::new();\ncrates/x/src/lib.rs:1:pub mod lua;"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			run("rg -n 'lua|evaluator' src crates tests 2>/dev/null", 2, matches),
			run("git log -1", 0, "abc fix"),
			run("grep -rn 'TODO' docs missing-dir", 2, "grep: missing-dir: No such file or directory\ndocs/a.md:3:TODO: write"),
			run("cd cli/strategy && go test -run TestAttribution", 1, "(eval):cd:1: no such file or directory: cli/strategy"),
		})
	}
	saw, cd := false, false
	for _, c := range candidatesOf(t, dir) {
		for _, e := range c.Examples.Match {
			if strings.Contains(e.Error, "Evaluator::new") {
				t.Errorf("%s candidate %q keyed on a match", c.Kind, c.Summary)
			}
			saw = saw || strings.Contains(e.Error, "missing-dir: No such file")
			cd = cd || strings.Contains(e.Error, "(eval):cd:1:") // go test is no search tool, whatever its subcommand's name
		}
	}
	if !saw || !cd {
		t.Errorf("a lesson on grep's own error line: %v; on the cd before go test: %v; want both", saw, cd)
	}
}

// TestSearchToolNotFound: zsh names where it read the line it refuses,
// "(eval):1: command not found: rg", a line of a match's shape; rg is a
// search tool, and the line was read as one of its matches, so the
// missing program, met after the session changed a file (no known
// failure), had no lesson on its error. The shell's own error is none.
func TestSearchToolNotFound(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		write("/p/src/app.py", "import mcp\n"),
		run(`rg -i "mcp|claude" src --type py`, 127, "(eval):1: command not found: rg"),
		run("git log -1", 0, "abc fix"),
	})
	cs := candidatesOf(t, dir)
	for _, c := range ofKind(cs, KindError) {
		if strings.Contains(c.Summary, "rg") {
			return
		}
	}
	t.Errorf("no lesson on rg missing: %q", summaries(cs))
}
