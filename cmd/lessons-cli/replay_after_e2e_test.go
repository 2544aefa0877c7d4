package main

import (
	"path/filepath"
	"testing"
)

// TestE2EReplayAfterFailure replays the test logs with a lesson on the
// error make deploy prints: it fires after each failed make deploy (one
// in each of Claude Code's, Codex's and Gemini CLI's sessions), never
// before a call.
func TestE2EReplayAfterFailure(t *testing.T) {
	s, logs := replaySandbox(t)
	s.write(filepath.Join(s.home, "lessons", "stage-unset.yaml"), `id: 01JQ0000000000000000000099
slug: stage-unset
summary: STAGE is not set means make deploy needs STAGE=staging in front
problem: The deploy target reads the environment name from STAGE and stops without it.
solution: Run STAGE=staging make deploy.
triggers:
  errors:
    - 'STAGE is not set'
examples:
  match:
    - command: make deploy
      error: "error: STAGE is not set"
`)
	rep, r := s.replay(t, "--path", logs, "stage-unset")
	if r.code != 0 {
		t.Fatalf("replay exit %d\n%s", r.code, r.stderr)
	}
	for _, l := range rep.Lessons {
		if l["slug"] != "stage-unset" {
			continue
		}
		if l["firesAfter"] != 3.0 || l["fires"] != 3.0 || l["firesBeforeFailed"] != 0.0 || l["firesBeforeFine"] != 0.0 {
			t.Errorf("stage-unset: %v; want 3 fires, all after a failure", l)
		}
		return
	}
	t.Errorf("stage-unset never fired: %v", rep.Lessons)
}
