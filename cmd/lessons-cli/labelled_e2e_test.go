package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2EPromoteLabelledSet scans the labelled sessions with the real
// binary, promotes every candidate that promote accepts, and runs
// lessons test: whatever promote writes must pass its own examples (its
// trigger fires on the mistake, never on the fix). A rejection that a
// built-in lesson catches is refused, naming it. The jest mistake, which
// an active lesson already catches (a global one: the built-in jest
// lesson does not fire at a bare npm test, whose script it cannot see),
// is not listed for review; promoting its record is refused, naming that
// lesson, unless --force, and doctor then warns about the pair.
func TestE2EPromoteLabelledSet(t *testing.T) {
	s := newSandbox(t)
	const active = "npm-test-watches-here"
	s.write(filepath.Join(s.home, "lessons", active+".yaml"), `id: 01JQ0000000000000000000012
slug: `+active+`
kind: pitfall
summary: npm test starts jest in watch mode here; run it with CI=true
problem: The test script runs jest in watch mode, so the call never returns.
solution: Run CI=true npm test -- --watchAll=false.
triggers:
  commands: ['\bnpm\s+test\b']
  unless: ['\bCI=true\b']
examples:
  match: [npm test]
  noMatch: [CI=true npm test]
`)
	logs := filepath.Join(s.root, "logs")
	if err := os.CopyFS(logs, os.DirFS("../../testdata/labelled")); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour) // ended sessions: nothing left pending
	filepath.WalkDir(logs, func(p string, _ os.DirEntry, _ error) error { return os.Chtimes(p, old, old) })
	s.ok(s.root, "init")
	s.ok(s.root, "scan", "--path", logs)

	type cand struct {
		ID, Kind, Status, Summary, Trigger, LessonID string
		Confidence                                   float64
	}
	var all []cand
	if err := json.Unmarshal([]byte(s.ok(s.root, "candidates", "--all", "--json").stdout), &all); err != nil {
		t.Fatal(err)
	}
	promoted, refused := 0, 0
	var dup *cand
	for i, c := range all {
		switch c.Status {
		case "duplicate":
			if strings.Contains(c.Trigger, "npm test") {
				dup = &all[i]
			}
			continue
		case "new":
		default:
			continue
		}
		if strings.Contains(c.Trigger, "npm test") {
			t.Errorf("the jest mistake waits for review: %s %q", c.Kind, c.Summary)
		}
		r := s.run(s.root, "", "promote", c.ID, "--global")
		if strings.Contains(c.Trigger, "push --force") && (r.code == 0 || !strings.Contains(r.stderr, "git-push-force-without-force-with-cmqy")) {
			t.Errorf("promote of the rejected force push, which the built-in lesson catches: exit %d\n%s", r.code, r.stderr)
		}
		if r.code == 0 {
			promoted++
		} else {
			refused++
			t.Logf("promote %s (%s %q) refused: %s", c.ID, c.Kind, c.Summary, strings.TrimSpace(r.stderr))
		}
	}
	if promoted < 7 {
		t.Errorf("promoted %d candidates (%d refused), want at least 7", promoted, refused)
	}
	if r := s.run(s.root, "", "test"); r.code != 0 || !strings.HasPrefix(r.stdout, "ok: ") {
		t.Errorf("lessons test after promoting %d candidates: exit %d\n%s%s", promoted, r.code, r.stdout, r.stderr)
	}

	if dup == nil || !strings.Contains(dup.Trigger, "npm test") {
		t.Fatalf("no duplicate record for the jest mistake %s catches: %+v", active, dup)
	}
	r := s.run(s.root, "", "promote", dup.ID, "--global")
	if r.code == 0 || !strings.Contains(r.stderr, "repeats the lesson") {
		t.Errorf("promote of a record that repeats a lesson: exit %d\n%s", r.code, r.stderr)
	}
	s.ok(s.root, "promote", dup.ID, "--global", "--force")
	if r := s.run(s.root, "", "doctor"); !strings.Contains(r.stdout+r.stderr, active) {
		t.Errorf("doctor does not name %s after a forced copy of it:\n%s%s", active, r.stdout, r.stderr)
	}
}
