package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2EDoctorPackGate: a project subscribes to a pack shipped with the
// binary whose lesson comes before every `go test` run; the user's own
// recent sessions run `go test ./...` and it goes fine each time. doctor
// warns about that lesson by name, pack and file, with the command that
// mutes it; once the sessions are older than the two weeks doctor looks
// at, or the lesson is disabled, the warning goes.
func TestE2EDoctorPackGate(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	s.ok(s.project, "pack", "add", "builtin:go-testing", "--project")
	const slug = "go-test-caches-passing-package-results-riqz"

	logs := filepath.Join(s.root, ".claude", "projects", strings.ReplaceAll(s.project, string(filepath.Separator), "-"))
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	var files []string
	for i := range 25 {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		f := filepath.Join(logs, id+".jsonl")
		s.write(f, goTestSession(id, s.project, time.Now().Add(-time.Duration(25-i)*time.Hour)))
		files = append(files, f)
	}

	warning := func() (doctorFinding, bool) {
		t.Helper()
		r := s.run(s.project, "", "doctor", "--json")
		var fs []doctorFinding
		if err := json.Unmarshal([]byte(r.stdout), &fs); err != nil {
			t.Fatalf("doctor --json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
		}
		for _, f := range fs {
			if strings.Contains(f.Message, slug) && strings.Contains(f.Message, "gate") {
				return f, true
			}
		}
		return doctorFinding{}, false
	}

	f, ok := warning()
	switch {
	case !ok:
		t.Fatalf("doctor does not warn about %s, which came before 25 fine go test runs in 25 recent sessions", slug)
	case f.Severity != "warning" || !strings.Contains(f.Message, "pack:go-testing") || filepath.Base(f.File) != slug+".yaml":
		t.Errorf("the warning does not name the pack and the lesson's file: %+v", f)
	case !strings.Contains(f.Fix, "lessons disable "+slug):
		t.Errorf("the warning does not say how to mute the lesson: %q", f.Fix)
	}

	old := time.Now().Add(-30 * 24 * time.Hour)
	for _, p := range files {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if f, ok := warning(); ok {
		t.Errorf("doctor judged the pack on sessions a month old: %+v", f)
	}
	for _, p := range files {
		if err := os.Chtimes(p, time.Now(), time.Now()); err != nil {
			t.Fatal(err)
		}
	}

	s.ok(s.project, "disable", slug, "--project")
	if f, ok := warning(); ok {
		t.Errorf("doctor still warns about %s once the project disabled it: %+v", slug, f)
	}
}

// doctorFinding is the part of doctor's JSON these tests read.
type doctorFinding struct {
	Severity, File, Message, Fix string
}

// goTestSession is a Claude Code log of one session in project that ran
// go test ./... at start and saw it pass.
func goTestSession(id, project string, start time.Time) string {
	at := func(s int) string { return start.Add(time.Duration(s) * time.Second).UTC().Format(time.RFC3339) }
	return fmt.Sprintf(`{"type":"user","sessionId":"%[1]s","cwd":%[2]q,"uuid":"u-%[1]s","timestamp":%[3]q,"message":{"role":"user","content":"run the tests"}}
{"type":"assistant","sessionId":"%[1]s","cwd":%[2]q,"uuid":"a-%[1]s","timestamp":%[4]q,"message":{"role":"assistant","content":[{"type":"tool_use","id":"t-%[1]s","name":"Bash","input":{"command":"go test ./..."}}]}}
{"type":"user","sessionId":"%[1]s","cwd":%[2]q,"uuid":"r-%[1]s","timestamp":%[5]q,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t-%[1]s","content":"ok  \texample.com/app\t0.01s"}]}}
`, id, project, at(0), at(1), at(2))
}
