package lessons

import "testing"

// TestCwdRecordFailed: the error of Claude Code's record of the shell's
// directory, which comes only after the command succeeded, in zsh's and
// bash's words and in its sandbox's folder; not a command's own error
// that names another file.
func TestCwdRecordFailed(t *testing.T) {
	for out, want := range map[string]bool{
		"OpenJDK warning\nzsh:1: permission denied: /var/folders/zz/zyx/T/claude-46eb-cwd\n\nBUILD SUCCESSFUL in 11s": true,
		"/bin/bash: line 1: /tmp/claude-0a1f2c-cwd: Permission denied":                                                true,
		"bash: /tmp/claude/cwd-9f3e21: Read-only file system":                                                         true,
		"zsh:1: permission denied: ./deploy.sh":                                                                       false,
		"cat: /tmp/claude-notes-cwd: No such file or directory":                                                       false,
		"BUILD SUCCESSFUL": false,
	} {
		if got := CwdRecordFailed(out); got != want {
			t.Errorf("CwdRecordFailed(%q) = %v, want %v", out, got, want)
		}
	}
}
