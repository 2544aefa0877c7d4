package main

import (
	"cmp"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lockedSession writes a Claude Code session in project whose report
// command fails on a lock and which nothing got past: the agent leaves it.
func lockedSession(t *testing.T, s *sandbox, dir, project, id string) {
	t.Helper()
	l := &claudeLog{id: id, cwd: project, hour: 1}
	bash := func(tid, cmd, out string, fail bool) {
		l.call(tid, "Bash", map[string]any{"command": cmd}, out, fail)
	}
	l.line("user", "run the monthly report")
	bash("t1", "./bin/report --month 11", "Error: the report database is locked by another process (lock file .report.lock)", true)
	l.line("assistant", []any{map[string]any{"type": "text", "text": "The report cannot run while its database is locked; I will summarise without it."}})
	bash("t2", "ls", "README.md\nbin", false)
	l.save(t, s, dir)
}

// TestE2EReminder follows a failure seen once, that nothing got past, to
// the next time it comes: a scan learns a lesson on its error below
// minConfidence, and without anyone promoting it the hook binary says it
// after the same error in that project (a reminder), never before a
// call, never in another directory; rejected, it stops.
func TestE2EReminder(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs", "-project")
	lockedSession(t, s, logs, s.project, "s1")
	s.ok(s.project, "init", "--project")
	s.ok(s.root, "scan", "--path", filepath.Dir(logs))
	var cands []struct {
		ID         string
		Confidence float64
	}
	if err := json.Unmarshal([]byte(s.ok(s.root, "candidates", "--json").stdout), &cands); err != nil {
		t.Fatal(err)
	}
	if len(cands) != 1 || cands[0].Confidence >= 0.5 {
		t.Fatalf("candidates %+v, want one below minConfidence", cands)
	}
	// the table marks it as what the hook already says
	if r := s.ok(s.root, "candidates"); !strings.Contains(r.stdout, "known*") || !strings.Contains(r.stderr, "* 1 the hook already says") {
		t.Errorf("lessons candidates: %q %q; want the candidate marked a reminder", r.stdout, r.stderr)
	}
	slug := "reminder-" + cands[0].ID
	hookBin := bin.front
	if hookBin == "" {
		hookBin = bin.cli
	}
	call := func(dir, session, event, extra string) result {
		return s.exec(hookBin, dir, `{"session_id":"`+session+`","cwd":"`+dir+`","hook_event_name":"`+event+
			`","tool_name":"Bash","tool_input":{"command":"./bin/report --month 12"}`+extra+`}`, "hook")
	}
	failed := `,"error":"Error: the report database is locked by another process (lock file .report.lock)"`
	if r := call(s.project, "h1", "PreToolUse", ""); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("before the call: exit %d, %s; want nothing of %s", r.code, r.stdout, slug)
	}
	r := call(s.project, "h1", "PostToolUseFailure", failed)
	// seen once, it says it came before and asks for a check, never that
	// the agent's work is not to blame
	if r.code != 0 || !strings.Contains(r.stdout, slug) || !strings.Contains(r.stdout, "in an earlier session of this project") ||
		!strings.Contains(r.stdout, "check whether it fails without them") || strings.Contains(r.stdout, "not from your work") {
		t.Errorf("after the same error: exit %d, want %s saying it came before, and to check:\n%s%s", r.code, slug, r.stdout, r.stderr)
	}
	if r := call(s.project, "h2", "PostToolUseFailure", `,"error":"Error: no such option: --month"`); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("after another error: exit %d, %s; want nothing of %s", r.code, r.stdout, slug)
	}
	if r := call(s.root, "h3", "PostToolUseFailure", failed); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("outside the project: exit %d, %s; want nothing of %s", r.code, r.stdout, slug)
	}
	s.ok(s.root, "reject", cands[0].ID)
	if r := call(s.project, "h4", "PostToolUseFailure", failed); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("after the candidate was rejected: exit %d, %s; want nothing of %s", r.code, r.stdout, slug)
	}
}

// TestE2EOptionReminder: a retry that dropped an option the command does
// not take, seen once, is keyed on that option, before the call. Until
// its failure comes back it is no proposal: the hook says it after the
// same error, and not before a call with the option.
func TestE2EOptionReminder(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs", "-project")
	l := &claudeLog{id: "s1", cwd: s.project, hour: 1}
	l.line("user", "show what the PR changes")
	l.call("t1", "Bash", map[string]any{"command": "gh pr diff 12 --stat"}, "unknown flag: --stat", true)
	l.call("t2", "Bash", map[string]any{"command": "gh pr diff 12"}, "diff --git a/x b/x", false)
	l.save(t, s, logs)
	s.ok(s.project, "init", "--project")
	s.ok(s.root, "scan", "--path", filepath.Dir(logs))
	type candidate struct {
		ID         string
		Kind       string
		Confidence float64
	}
	var cands []candidate
	if err := json.Unmarshal([]byte(s.ok(s.root, "candidates", "--json").stdout), &cands); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cands, func(c candidate) bool { return c.Kind == "retry" })
	if i < 0 || slices.ContainsFunc(cands, func(c candidate) bool { return c.Confidence >= 0.5 }) {
		t.Fatalf("candidates %+v, want a retry, none at minConfidence", cands)
	}
	slug := "reminder-" + cands[i].ID
	hookBin := cmp.Or(bin.front, bin.cli)
	call := func(event, extra string) result {
		return s.exec(hookBin, s.project, `{"session_id":"h1","cwd":"`+s.project+`","hook_event_name":"`+event+
			`","tool_name":"Bash","tool_input":{"command":"gh pr diff 13 --stat"}`+extra+`}`, "hook")
	}
	if r := call("PreToolUse", ""); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("before the call: exit %d, %s; want nothing of %s", r.code, r.stdout, slug)
	}
	if r := call("PostToolUseFailure", `,"error":"unknown flag: --stat"`); r.code != 0 || !strings.Contains(r.stdout, slug) || !strings.Contains(r.stdout, "--stat") {
		t.Errorf("after the same error: exit %d, want %s:\n%s%s", r.code, slug, r.stdout, r.stderr)
	}
}
