package scanner

import "testing"

// TestHookThatLetsTheSameCallThrough: a hook of the agent stops the first
// edit of a workflow file with a reminder and lets the same edit through
// (or a permission rule of opencode's refuses it, and the rule is changed).
// That is the set-up's doing: no lesson that the edit "fails now and
// then". An edit that failed on its own and then worked unchanged still
// gives that lesson.
func TestHookThatLetsTheSameCallThrough(t *testing.T) {
	edit := map[string]any{"file_path": "/p/.github/workflows/ci.yml", "old_string": "node: 18", "new_string": "node: 20"}
	for _, tc := range []struct {
		err  string
		want bool
	}{
		{"PreToolUse:Edit hook error: [python3 /home/dev/.claude/plugins/security/hooks/reminder.py]: workflow files run with repository secrets; check the change", false},
		{"The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules [{\"permission\":\"edit\",\"pattern\":\"*.yml\",\"action\":\"deny\"}]", false},
		{"EBUSY: resource busy or locked, open '/p/.github/workflows/ci.yml'", true},
	} {
		dir := t.TempDir()
		for _, id := range []string{"s1", "s2"} {
			writeClaude(t, dir, "/p", id, []step{
				call("Edit", edit, true, tc.err),
				call("Edit", edit, false, "The file /p/.github/workflows/ci.yml has been updated."),
			})
		}
		if got := len(errorCandidates(t, dir)) > 0; got != tc.want {
			t.Errorf("error %q: lesson %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestCwdRecordIsNoFailure: Claude Code records the shell's directory
// after a command succeeds; where its temporary folder is not writable
// that write fails, and the call reads as failed. The command succeeded:
// the call is fine, and two sessions of it give no lesson.
func TestCwdRecordIsNoFailure(t *testing.T) {
	dir := t.TempDir()
	out := "OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot loader classes\nzsh:1: permission denied: /var/folders/zz/zyx/T/claude-46eb-cwd\n\nBUILD SUCCESSFUL in 11s"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{run("./gradlew :server:test", 1, out), run("git status --short", 0, "")})
	}
	got := loggedCalls(t, dir, func(c LoggedCall) string { return c.Command + " " + c.Outcome.String() })
	for _, g := range got {
		if g == "./gradlew :server:test failed" {
			t.Errorf("%s: want fine", g)
		}
	}
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	if cs := candidates(t, state); len(cs) > 0 {
		t.Errorf("candidates %v, want none", summaries(cs))
	}
}
