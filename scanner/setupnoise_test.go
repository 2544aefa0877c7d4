package scanner

import (
	"strings"
	"testing"
)

// TestRetryPastTheStartupFilesNoise: a ~/.bashrc that calls a program
// this machine lacks prints its error with every command's output; the
// retry lesson is about the command's own error, and nothing learned is
// about the start-up file's.
func TestRetryPastTheStartupFilesNoise(t *testing.T) {
	dir := t.TempDir()
	noise := "/c/Users/ann/.bashrc: line 1: gh: command not found\n"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/c/Users/ann/app", id, []step{
			run("ls", 0, noise+"a.txt"),
			run("copy a.txt b.txt", 127, noise+"/usr/bin/bash: line 1: copy: command not found"),
			run("cp a.txt b.txt", 0, noise),
		})
	}
	var retry *Candidate
	cs := candidatesOf(t, dir)
	for i, c := range cs {
		if strings.Contains(c.Summary+c.Solution+strings.Join(c.Triggers.Errors, " "), "gh") {
			t.Errorf("candidate %q (%v) is about the start-up file's error", c.Summary, c.Triggers.Errors)
		}
		if c.Kind == KindRetry {
			retry = &cs[i]
		}
	}
	if retry == nil || !strings.Contains(retry.Summary, "use cp instead of copy") {
		t.Errorf("candidates %q: want the retry lesson copy -> cp", summaries(cs))
	}
}
