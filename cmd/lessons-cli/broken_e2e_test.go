package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EBrokenLessonIsNamed: a project lesson file with broken YAML is
// named, with its line, by show, edit, rm, test and disable, and by build, which exits
// 1 but writes the manifest of the other lessons; the hook's rebuild
// (build --quiet, exit 1 with a fresh manifest) counts as done, so the
// other lessons still fire.
func TestE2EBrokenLessonIsNamed(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	dir := filepath.Join(s.project, ".lessons")
	s.write(filepath.Join(dir, "make-deploy-needs-the-staging-flag.yaml"), fixture(t, "make-deploy-needs-the-staging-flag.yaml"))
	broken := filepath.Join(dir, "broken.yaml")
	s.write(broken, fixture(t, "broken.yaml"))

	for _, cmd := range []string{"show", "edit", "rm", "test", "disable"} {
		r := s.run(s.project, "", cmd, "broken")
		if r.code == 0 || !strings.Contains(r.stderr, broken+":3:") || strings.Contains(r.stderr, "no lesson") {
			t.Errorf("%s broken: exit %d, want an error naming %s:3\n%s", cmd, r.code, broken, r.stderr)
		}
	}
	if _, err := os.Stat(broken); err != nil {
		t.Errorf("rm of a broken lesson removed it: %v", err)
	}

	r := s.run(s.project, "", "build", "--json")
	var rep struct {
		Manifest string
		Active   int
		Warnings []string
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("build --json: %v\n%s", err, r.stdout)
	}
	if r.code != 1 || len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], broken+":3:") || rep.Active < 10 {
		t.Errorf("build --json with a broken lesson: exit %d, %d active, warnings %q; want exit 1, the file named, the rest active", r.code, rep.Active, rep.Warnings)
	}
	if _, err := os.Stat(rep.Manifest); err != nil {
		t.Errorf("build wrote no manifest: %v", err)
	}
	r = s.run(s.project, "", "build")
	if r.code != 1 || !strings.Contains(r.stderr, broken+":3:") || !strings.Contains(r.stdout, "built ") {
		t.Errorf("build with a broken lesson: exit %d, want 1 naming %s:3 after building\n%s%s", r.code, broken, r.stdout, r.stderr)
	}
	r = s.run(s.project, "", "build", "--quiet")
	if r.code != 1 || !strings.Contains(r.stderr, broken+":3:") {
		t.Errorf("build --quiet with a broken lesson: exit %d, want 1 naming %s:3\n%s", r.code, broken, r.stderr)
	}

	if bin.front == "" {
		t.Skip("cmd/lessons does not build")
	}
	if err := os.Remove(rep.Manifest); err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"s1","cwd":"` + s.project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make deploy"}}`
	r = s.exec(bin.front, s.project, payload, "hook")
	if r.code != 0 || !strings.Contains(r.stdout, "make-deploy-needs-the-staging-flag") {
		t.Errorf("hook with no manifest and a broken lesson: exit %d, want the other lesson injected:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
