package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EAllowInOneProject: a project whose workflow resets to the remote
// branch on purpose allows the hard-reset lesson in its config; the hook
// there neither refuses nor asks but still says why, while in another
// project the same call is still put to the user.
func TestE2EAllowInOneProject(t *testing.T) {
	if bin.front == "" {
		t.Skip("cmd/lessons does not build")
	}
	s := newSandbox(t)
	const slug = "git-reset-hard-throws-away-uncommitted-h6ur"
	s.write(filepath.Join(s.project, ".lessons", "config.yaml"), "allow: ["+slug+"]\n")
	other := filepath.Join(s.root, "other")
	if err := os.MkdirAll(filepath.Join(other, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	hook := func(dir, session string) string {
		payload := `{"session_id":"` + session + `","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git fetch && git reset --hard origin/main"}}`
		r := s.exec(bin.front, dir, payload, "hook")
		if r.code != 0 {
			t.Fatalf("hook in %s: exit %d\n%s%s", dir, r.code, r.stdout, r.stderr)
		}
		return r.stdout
	}
	if out := hook(s.project, "s1"); strings.Contains(out, `"ask"`) || strings.Contains(out, `"deny"`) || !strings.Contains(out, slug) {
		t.Errorf("in the project that allows %s: %s\nwant no ask or deny, and the lesson's text", slug, out)
	}
	if out := hook(other, "s2"); !strings.Contains(out, `"ask"`) {
		t.Errorf("in another project: %s\nwant the call put to the user (ask)", out)
	}
	r := s.ok(s.project, "list", "--json")
	if !strings.Contains(r.stdout, slug) {
		t.Errorf("list in the allowing project no longer shows %s: allow must not disable it", slug)
	}
}
