package main

import (
	"path/filepath"
	"slices"
	"testing"
)

// refusal is a Bash call the user refused at Claude Code's permission
// prompt, saying why.
func refusal(command, reason string) loggedCall {
	return loggedCall{command, "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n" + reason, true}
}

// TestE2EReplayRefusalsLearnWhatWasRefused: what a learning replay
// learns from refusals fires before calls like the one refused, not
// before every call of its command: a refusal of adding one file speaks
// when that file is added again, not at every later git add; no refusal
// is learned from one session ("for now"); and refusals that came back in
// a second session are learned and fire at the next such call.
func TestE2EReplayRefusalsLearnWhatWasRefused(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs")
	writeSession(t, logs, "r0", "/w/a", 0,
		refusal("git add notes/draft-plan.md", "don't add the draft to git"),
		refusal("make dist", "don't build the packages for now, carry on"),
		refusal("git stash", "never stash, read the files you need"),
	)
	writeSession(t, logs, "r1", "/w/a", 1,
		refusal("git add notes/draft-plan.md", "don't add the draft to git"),
		refusal("git stash", "never stash, read the files you need"),
	)
	for i, id := range []string{"r2", "r3", "r4"} {
		writeSession(t, logs, id, "/w/a", 2+i,
			loggedCall{"git add main.go", "", false},
			loggedCall{"make dist", "built", false},
			loggedCall{"git status --short", "M main.go", false},
		)
	}
	writeSession(t, logs, "r5", "/w/a", 6,
		loggedCall{"git add notes/draft-plan.md", "", false},
		loggedCall{"git stash", "Saved working directory", false},
	)
	rep, all := s.replayRecounted(t, "--path", logs, "--learn")
	var firedOn []string
	for _, c := range callsOf(all) {
		for _, f := range c.Fired {
			if f.Provisional {
				firedOn = append(firedOn, c.Session+" "+c.Command)
			}
		}
	}
	if want := []string{"r5 git add notes/draft-plan.md", "r5 git stash"}; !slices.Equal(firedOn, want) {
		t.Errorf("learned lessons fired before %q; want only %q", firedOn, want)
	}
	if l := rep.Learn; l == nil || l.LearnedFiresBeforeFine != 2 {
		t.Errorf("learn %+v; want 2 learned fires before fine calls (the file and the stash the user refused)", rep.Learn)
	}
}
