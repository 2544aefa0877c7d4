package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EBuiltinPack: a lesson moved out of the defaults into a pack
// shipped with the binary is silent until a project subscribes with
// builtin:NAME, then the hook injects it there (no git, no sync needed)
// and nowhere else.
func TestE2EBuiltinPack(t *testing.T) {
	if bin.front == "" {
		t.Skip("cmd/lessons does not build")
	}
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	const slug = "go-test-caches-passing-package-results-riqz"
	hook := func(dir, session string) string {
		payload := `{"session_id":"` + session + `","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`
		r := s.exec(bin.front, dir, payload, "hook")
		if r.code != 0 {
			t.Fatalf("hook in %s: exit %d\n%s%s", dir, r.code, r.stdout, r.stderr)
		}
		return r.stdout
	}
	if out := hook(s.project, "s1"); strings.Contains(out, slug) {
		t.Fatalf("before subscribing, go test ./... brought up %s: it should be opt-in\n%s", slug, out)
	}
	if r := s.run(s.project, "", "pack", "add", "builtin:no-such-pack", "--project"); r.code == 0 || !strings.Contains(r.stderr, "go-testing") {
		t.Errorf("pack add of an unknown built-in pack: exit %d, want an error listing the packs\n%s", r.code, r.stderr)
	}
	r := s.ok(s.project, "pack", "add", "builtin:go-testing", "--project")
	if strings.Contains(r.stdout, "lessons sync") {
		t.Errorf("pack add builtin: asks for a sync: %s", r.stdout)
	}
	if out := hook(s.project, "s2"); !strings.Contains(out, slug) {
		t.Errorf("after pack add builtin:go-testing, go test ./... did not bring up %s\n%s", slug, out)
	}
	found := false
	for _, it := range s.list(s.project) {
		found = found || it.Slug == slug && it.Scope == "pack:go-testing"
	}
	if !found {
		t.Errorf("list does not show %s from pack:go-testing", slug)
	}
	if r := s.run(s.project, "", "sync"); r.code != 0 {
		t.Errorf("sync with only a built-in pack: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	other := filepath.Join(s.root, "other")
	if err := os.MkdirAll(filepath.Join(other, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := hook(other, "s3"); strings.Contains(out, slug) {
		t.Errorf("a project that did not subscribe got %s\n%s", slug, out)
	}
}
