package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// taskSession writes a Claude Code session of /home/dev/shop in which a
// subagent call names an agent that does not exist, then, when fix is
// set, the call with the right one works.
func taskSession(t *testing.T, s *sandbox, dir, id, agent string, hour int, fix bool) {
	t.Helper()
	l := &claudeLog{id: id, cwd: "/home/dev/shop", hour: hour}
	task := func(tid, subagent string, fail bool, out string) {
		l.call(tid, "Task", map[string]any{"subagent_type": subagent, "description": "Review the cart code", "prompt": "Review cart/"}, out, fail)
	}
	l.line("user", "review the cart")
	task(id+"-t1", agent, true, "Agent type '"+agent+"' not found. Available agents: general-purpose, Explore, shop:code-reviewer, shop:db-auditor")
	if fix {
		task(id+"-t2", "shop:"+agent, false, "The cart code looks fine.")
	}
	l.save(t, s, dir) // a session over: a scan settles what it found at its end
}

// TestE2ELearnedErrorLesson follows a lesson learned from a failure of a
// tool other than the shell to where the failure comes back: replay
// --learn shows it reaching the agent with the second session's failure
// (shortened), never before a call; scanned and promoted, the hook
// binary answers Claude Code's PostToolUseFailure of that tool with it.
func TestE2ELearnedErrorLesson(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs", "-home-dev-shop")
	taskSession(t, s, logs, "s1", "code-reviewer", 1, true)
	taskSession(t, s, logs, "s2", "db-auditor", 2, false)
	// A built-in lesson covers this failure too: muted, so what reaches
	// the agent is the learned lesson alone.
	s.ok(s.root, "init")
	s.ok(s.root, "disable", "a-subagent-type-that-does-not-exist-here-9mnj", "--global")

	trace := filepath.Join(s.root, "trace.jsonl")
	rep, r := s.replay(t, "--path", filepath.Dir(logs), "--learn", "--trace", trace)
	if r.code != 0 || rep.Learn == nil {
		t.Fatalf("replay --learn exit %d\n%s", r.code, r.stderr)
	}
	if l := rep.Learn; rep.Repeated != 1 || l.Shortened != 1 || l.Prevented != 0 || l.LearnedFiresBeforeFine != 0 {
		t.Errorf("learn %+v, repeated %d: want the repeat shortened, nothing before a call", *l, rep.Repeated)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var verdicts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Kind, Session, Tool, Outcome, Verdict string
			Fired                                 []struct{ At string }
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if c.Kind != "call" || c.Outcome != "failed" {
			continue
		}
		verdicts = append(verdicts, c.Session+":"+c.Verdict)
		if c.Session == "s2" && (len(c.Fired) != 1 || c.Fired[0].At != "after") {
			t.Errorf("s2's failed Task: fired %+v, want the learned lesson after it", c.Fired)
		}
	}
	if !slices.Equal(verdicts, []string{"s1:", "s2:shortened"}) {
		t.Errorf("verdicts %v, want s2's failure shortened", verdicts)
	}

	// The same lesson through a scan and the hook binary.
	s.ok(s.root, "scan", "--path", filepath.Dir(logs))
	var cands []struct{ ID, Kind, Solution string }
	if err := json.Unmarshal([]byte(s.ok(s.root, "candidates", "--json").stdout), &cands); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cands, func(c struct{ ID, Kind, Solution string }) bool { return c.Kind == "error" })
	if i < 0 {
		t.Fatalf("no lesson on the error among the candidates: %+v", cands)
	}
	slug := strings.TrimSpace(s.ok(s.root, "promote", cands[i].ID, "--global").stdout)
	hookBin := bin.front
	if hookBin == "" {
		hookBin = bin.cli
	}
	input := `"tool_input":{"subagent_type":"log-reader","description":"Read the logs","prompt":"Read logs/"}`
	pre := `{"session_id":"h1","cwd":"` + s.root + `","hook_event_name":"PreToolUse","tool_name":"Task",` + input + `}`
	if r := s.exec(hookBin, s.root, pre, "hook"); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("hook before the Task call: exit %d, %s; want nothing of %s", r.code, r.stdout, slug)
	}
	fail := `{"session_id":"h1","cwd":"` + s.root + `","hook_event_name":"PostToolUseFailure","tool_name":"Task",` + input +
		`,"error":"Agent type 'log-reader' not found. Available agents: general-purpose, Plan, shop:log-reader"}`
	r = s.exec(hookBin, s.root, fail, "hook")
	var out map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || !strings.Contains(r.stdout, slug) ||
		!strings.Contains(r.stdout, "shop:code-reviewer") {
		t.Errorf("hook after the Task failure: exit %d, want %s with the fix that worked:\n%s%s", r.code, slug, r.stdout, r.stderr)
	}
	other := `{"session_id":"h2","cwd":"` + s.root + `","hook_event_name":"PostToolUseFailure","tool_name":"Task",` + input +
		`,"error":"API Error: 529 overloaded"}`
	if r := s.exec(hookBin, s.root, other, "hook"); r.code != 0 || strings.Contains(r.stdout, slug) {
		t.Errorf("hook after another Task error: exit %d, %s; want nothing of %s", r.code, r.stdout, slug)
	}
}
