package scanner

import (
	"strings"
	"testing"
)

// TestWrongProgramFoundOnlyWhereRun: the shell did not find a program
// the agent ran by its path. A later command that names a word of the
// same last name (gh --repo acme/app) does not say where the program is;
// one that runs it (bin/app) does. Before, "`app` is at `acme/app`" was
// proposed.
func TestWrongProgramFoundOnlyWhereRun(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("target/debug/app --version", 127, "zsh:1: no such file or directory: target/debug/app"),
		run("gh pr view 12 --repo acme/app", 0, "title: fix the build"),
	})
	writeClaude(t, dir, "/q", "s2", []step{
		run("build/tool --help", 127, "zsh:1: no such file or directory: build/tool"),
		run("out/bin/tool --help", 0, "usage: tool [flags]"),
	})
	var paths []string
	ran := false
	for _, c := range candidatesOf(t, dir) {
		if c.Kind == KindPath {
			if strings.Contains(c.Summary, "acme/app") {
				t.Errorf("a repository's name taken for the program's path: %q", c.Summary)
			}
			ran = ran || strings.Contains(c.Summary, "out/bin/tool")
			paths = append(paths, c.Summary)
		}
	}
	if !ran {
		t.Errorf("no lesson that the program runs from out/bin/tool: %q", paths)
	}
}
