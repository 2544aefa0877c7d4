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
