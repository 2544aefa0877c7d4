package scanner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReadSessions reads the replay fixtures: sessions come oldest
// first whatever their file names, each call with its outcome, and each
// failure with the call that fixed it.
func TestReadSessions(t *testing.T) {
	logs := filepath.Join("..", "testdata", "replay", "logs")
	var got []string
	rep, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{logs}, Workers: 2, Candidates: true},
		func(s *LoggedSession) *LoggedSession { return s },
		func(s *LoggedSession) error {
			var calls []string
			for _, c := range s.Calls {
				desc := fmt.Sprintf("%s=%s", c.Command, c.Outcome)
				if c.Fix >= 0 {
					desc += fmt.Sprintf(" fixed by %d", c.Fix)
				}
				if c.Outcome == OutcomeFailed || c.Outcome == OutcomeRejected {
					desc += " [" + c.Family() + " | " + c.ErrorClass() + "]"
				}
				calls = append(calls, desc)
			}
			got = append(got, fmt.Sprintf("%s %s %s %d candidates: %s", s.Agent, s.ID, filepath.Base(s.File), len(s.Candidates), strings.Join(calls, "; ")))
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"claude s1 s1.jsonl 3 candidates: ls=fine; make deploy=failed fixed by 2 [Bash make deploy | usage]; " +
			"STAGE=staging make deploy=fine; git push --force origin main=fine; ls dist=fine; rm -rf build=rejected [Bash rm | rejected]",
		"codex s2 rollout-s2.jsonl 1 candidates: make deploy=failed fixed by 1 [Bash make deploy | usage]; " +
			"STAGE=staging make deploy=fine; ls=fine",
		"gemini s3 chat-s3.jsonl 1 candidates: make deploy=failed fixed by 1 [Bash make deploy | usage]; " +
			"STAGE=prod make deploy=fine; ls -la=fine; terraform plan=fine",
		"claude s4 s4-truncated.jsonl 0 candidates: ls=unknown",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sessions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Files != 5 || rep.Sessions != 4 || rep.Skipped.UnknownFiles != 1 || rep.Skipped.InvalidLines != 1 || len(rep.Errors) != 2 {
		t.Errorf("report %+v", rep)
	}
}

// An error from emit ends the read at once, with more sessions waiting
// than the window holds.
func TestReadSessionsStopsAtEmitsError(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "replay", "logs", "claude", "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range 100 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%03d.jsonl", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stop := errors.New("enough")
	n := 0
	done := make(chan error)
	go func() {
		_, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{dir}, Workers: 1},
			func(s *LoggedSession) int { return len(s.Calls) },
			func(int) error { n++; return stop })
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, stop) || n != 1 {
			t.Errorf("ReadSessions = %v after %d sessions, want the emit error after 1", err, n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadSessions did not return after emit failed")
	}
}
