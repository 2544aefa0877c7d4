package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scope"
)

func (e *env) bash(session, command string) []byte {
	p, _ := json.Marshal(map[string]any{
		"session_id": session, "cwd": e.project, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]string{"command": command},
	})
	return p
}

func (e *env) start(session, source string) []byte {
	p, _ := json.Marshal(map[string]any{
		"session_id": session, "cwd": e.project, "hook_event_name": "SessionStart", "source": source,
	})
	return p
}

func injected(text string) []string {
	_, rest, ok := strings.Cut(text, "<!-- lessons injected: ")
	if !ok {
		return nil
	}
	rest, _, _ = strings.Cut(rest, " -->")
	rest, _, _ = strings.Cut(rest, ";")
	return strings.Split(rest, ", ")
}

func TestDedupAcrossSessions(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	for i, tt := range []struct {
		session string
		want    bool
	}{{"s1", true}, {"s1", false}, {"s2", true}, {"s1", false}} {
		text := context(t, e.runHook(t, "claude", e.bash(tt.session, "pytest tests")))
		if got := strings.Contains(text, "pytest-hangs-on-tty"); got != tt.want {
			t.Errorf("call %d in session %s injected = %v, want %v: %q", i, tt.session, got, tt.want, text)
		}
	}
	// Blocks are not once per session: a dangerous call is refused each time.
	for range 2 {
		if out := e.runHook(t, "claude", e.bash("s1", "git push -f origin x")); !bytes.Contains(out, []byte(`"deny"`)) {
			t.Errorf("second force push in a session: %s, want deny", out)
		}
	}
}

func TestClearAndCompact(t *testing.T) {
	e := newEnv(t)
	ls := []scope.Resolved{
		resolved("high-priority", 8, `\bmake\b`),
		resolved("low-priority", 4, `\bmake\b`),
	}
	e.writeManifest(t, lessons.DefaultConfig(), ls)
	call := func() []string { return injected(context(t, e.runHook(t, "claude", e.bash("s", "make all")))) }
	if got := call(); len(got) != 2 {
		t.Fatalf("first call injected %v, want both", got)
	}
	if got := call(); got != nil {
		t.Fatalf("second call injected %v, want none", got)
	}
	text := context(t, e.runHook(t, "claude", e.start("s", "compact")))
	if !strings.Contains(text, "#lesson") {
		t.Errorf("compact did not re-inject the protocol: %q", text)
	}
	if got := call(); fmt.Sprint(got) != "[high-priority]" {
		t.Errorf("after compact injected %v, want [high-priority] (threshold 7)", got)
	}
	e.runHook(t, "claude", e.start("s", "clear"))
	if got := call(); len(got) != 2 {
		t.Errorf("after clear injected %v, want both", got)
	}
}

func resolved(slug string, priority int, command string) scope.Resolved {
	return scope.Resolved{Scope: lessons.ScopeGlobal, AllowBlock: true, Lesson: lessons.Lesson{
		ID: slug, Slug: slug, Summary: "Summary of the lesson " + slug, Priority: priority,
		Problem: "The problem " + slug + " describes.", Solution: "The solution " + slug + " gives.",
		Triggers: lessons.Trigger{Commands: []string{command}},
	}}
}

func TestBudget(t *testing.T) {
	e := newEnv(t)
	var ls []scope.Resolved
	for i := range 20 {
		r := resolved(fmt.Sprintf("large-%02d", i), 10-i/4, `\bnpm\b`)
		r.Problem = strings.Repeat(fmt.Sprintf("Long problem text %d. ", i), 150)
		ls = append(ls, r)
	}
	cfg := lessons.DefaultConfig()
	e.writeManifest(t, cfg, ls)
	text := context(t, e.runHook(t, "claude", e.bash("s", "npm install")))
	got := injected(text)
	if len(got) != 3 || got[0] != "large-00" {
		t.Fatalf("injected %v, want 3 lessons starting with the top one", got)
	}
	if !strings.Contains(text, "Long problem text 0.") || strings.Contains(text, "Long problem text 1.") {
		t.Errorf("want the first lesson whole and the others as summaries:\n%s", text)
	}
	if !strings.Contains(text, "; dropped: large-03") {
		t.Errorf("want the dropped lessons listed: %s", text[len(text)-300:])
	}
	// The first line names the call and the count.
	if first, _, _ := strings.Cut(text, "\n"); first != "3 lessons for this Bash call: npm install" {
		t.Errorf("first line = %q", first)
	}
	// Dropped lessons stay eligible, and LESSONS_* overrides the config.
	out := e.runHook(t, "claude", e.bash("s", "npm test"), "LESSONS_MAX_LESSONS_PER_INJECTION=1")
	if got := injected(context(t, out)); fmt.Sprint(got) != "[large-03]" {
		t.Errorf("next call injected %v, want [large-03]", got)
	}
}

func TestParallelCallsInjectOnce(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	const n = 32
	outs := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { outs[i] = e.runHook(t, "claude", e.bash("parallel", "pytest -x")) })
	}
	wg.Wait()
	count := 0
	for _, out := range outs {
		if strings.Contains(context(t, out), "pytest-hangs-on-tty") {
			count++
		}
	}
	if count != 1 {
		t.Errorf("%d of %d parallel calls injected the lesson, want exactly 1", count, n)
	}
}

func TestMalformedInputAnswersEmpty(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	for _, in := range []string{
		"", "not json", "[1,2]", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"x"}`,
		`{"session_id":"s","cwd":"/","tool_name":"Bash"}`,
	} {
		out := e.runHook(t, "claude", []byte(in))
		if string(out) != "{}\n" {
			t.Errorf("hook on %q = %q, want {}", in, out)
		}
	}
	log, err := os.ReadFile(engine.HookLogPath(e.state))
	if err != nil || bytes.Count(log, []byte("\n")) != 5 {
		t.Errorf("hook.log should have one line per failure: %v\n%s", err, log)
	}
	// A corrupt manifest with no way to rebuild it is also {}.
	path := e.dirs().ManifestPath(e.project)
	if err := os.WriteFile(path, []byte("LESSONSM garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := e.runHook(t, "claude", e.bash("s", "pytest")); string(out) != "{}\n" {
		t.Errorf("hook with a corrupt manifest = %q, want {}", out)
	}
	// So is an unwritable state directory.
	e2 := newEnv(t)
	e2.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	os.MkdirAll(filepath.Dir(e2.state), 0o755)
	os.WriteFile(e2.state, []byte("a file, not a directory"), 0o644)
	if out := e2.runHook(t, "claude", e2.bash("s", "pytest")); string(out) != "{}\n" {
		t.Errorf("hook with an unwritable state dir = %q, want {}", out)
	}
}

func TestBacktrackingPatternIsBounded(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), []scope.Resolved{
		resolved("catastrophic", 5, `(?=a)^(a+)+$`),
		resolved("fine", 5, `aaaa`),
	})
	binary(t)
	start := time.Now()
	out := e.runHook(t, "claude", e.bash("s", strings.Repeat("a", 30000)+"!"))
	elapsed := time.Since(start)
	if got := injected(context(t, out)); fmt.Sprint(got) != "[fine]" {
		t.Errorf("injected %v, want the other lesson", got)
	}
	if elapsed > 3*lessons.PatternTimeout {
		t.Errorf("hook took %v with a backtracking pattern", elapsed)
	}
	log, _ := os.ReadFile(engine.HookLogPath(e.state))
	if !bytes.Contains(log, []byte("catastrophic")) || !bytes.Contains(log, []byte("timed out")) {
		t.Errorf("hook.log does not name the timed-out lesson: %s", log)
	}
	t.Logf("whole process with a timed-out pattern: %v", elapsed)
}

func TestEventLogAndStats(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	e.runHook(t, "claude", e.bash("a", "pytest"))
	e.runHook(t, "claude", e.bash("b", "pytest"))
	e.runHook(t, "claude", e.bash("a", "git push --force origin main"))
	m, err := engine.Open(e.dirs().ManifestPath(e.project))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rep, err := engine.Stats(e.state, m, 30, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	byslug := map[string]engine.LessonStats{}
	for _, s := range rep.Lessons {
		byslug[s.Slug] = s
	}
	if s := byslug["pytest-hangs-on-tty"]; s.Injections != 2 || s.Sessions != 2 || s.LastUsed.IsZero() {
		t.Errorf("pytest stats = %+v", s)
	}
	if s := byslug["git-force-push-lease"]; s.Blocks != 1 || s.Sessions != 1 {
		t.Errorf("force push stats = %+v", s)
	}
	if len(rep.Idle) != m.Len()-2 {
		t.Errorf("idle = %v, want every lesson but the two that fired", rep.Idle)
	}
	line, _, _ := bytes.Cut(must(os.ReadFile(engine.EventsPath(e.state))), []byte("\n"))
	var ev map[string]any
	if err := json.Unmarshal(line, &ev); err != nil || ev["trigger"] != "commands" || ev["tool"] != "Bash" ||
		ev["project"] != e.project || ev["session"] != engine.SessionHash("a") || ev["event"] != "inject" {
		t.Errorf("event line = %s", line)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestStaleManifestRebuilds points LESSONS_CLI at a script standing in
// for `lessons-cli build`: it must run once in the payload's cwd.
func TestStaleManifestRebuilds(t *testing.T) {
	e := newEnv(t)
	// An older manifest whose source has changed since.
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons()[:1])
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(e.project, ".lessons", "new.yaml"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The stand-in copies a manifest prepared with every lesson.
	ready := filepath.Join(e.root, "ready.manifest")
	full := newEnv(t)
	full.project = e.project
	full.cache = e.cache
	full.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	path := e.dirs().ManifestPath(e.project)
	if err := os.Rename(path, ready); err != nil {
		t.Fatal(err)
	}
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons()[:1])
	os.Chtimes(filepath.Join(e.project, ".lessons"), time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	script := filepath.Join(e.root, "fake-cli")
	marker := filepath.Join(e.root, "built-in")
	body := fmt.Sprintf("#!/bin/sh\n[ \"$1 $2\" = \"build --quiet\" ] || exit 3\npwd >> %q\ncp %q %q\n", marker, ready, path)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	out := e.runHook(t, "claude", e.bash("s", "pytest"), "LESSONS_CLI="+script)
	if !strings.Contains(context(t, out), "pytest-hangs-on-tty") {
		t.Errorf("after rebuild: %s", out)
	}
	if got := strings.TrimSpace(string(must(os.ReadFile(marker)))); got != e.project {
		t.Errorf("lessons-cli build ran in %q, want %q", got, e.project)
	}
	// A failing rebuild keeps the old manifest.
	e2 := newEnv(t)
	e2.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	os.Chtimes(filepath.Join(e2.project, ".lessons"), time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	out = e2.runHook(t, "claude", e2.bash("s", "pytest"), "LESSONS_CLI=/bin/false")
	if !strings.Contains(context(t, out), "pytest-hangs-on-tty") {
		t.Errorf("with a failing rebuild: %s, want the old manifest used", out)
	}
}

func TestFrontExecsCLI(t *testing.T) {
	e := newEnv(t)
	script := filepath.Join(e.root, "fake-cli")
	os.WriteFile(script, []byte("#!/bin/sh\necho \"$0|$*\"\nexit 7\n"), 0o755)
	cmd := exec.Command(binary(t), "list", "--json")
	cmd.Env = append(e.vars(), "LESSONS_CLI="+script)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
		t.Errorf("exit = %v, want the CLI's 7", err)
	}
	if got := strings.TrimSpace(string(out)); !strings.HasSuffix(got, "|list --json") {
		t.Errorf("CLI ran as %q", got)
	}
	cmd = exec.Command(binary(t), "list")
	cmd.Env = e.vars()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "go install github.com/lessons-dev/lessons/cmd/...@latest") {
		t.Errorf("without lessons-cli: %v, %s", err, stderr.String())
	}
}

// TestResume: a resumed session of Claude Code (claude -c, 2.1.331) or
// Codex replays the text hooks added, so a resume adds neither the
// protocol (it piled up once per resume in Codex) nor a lesson; Gemini
// CLI's replay is not measured, so its lessons come again. Measured by the
// real-agent suite.
func TestResume(t *testing.T) {
	e := newEnv(t)
	startLesson := resolved("start-lesson", 5, "")
	startLesson.Triggers = lessons.Trigger{SessionStart: true}
	e.writeManifest(t, lessons.DefaultConfig(), []scope.Resolved{resolved("make-lesson", 5, `\bmake\b`), startLesson})
	if got := injected(context(t, e.runHook(t, "claude", e.start("s", "startup")))); len(got) != 1 {
		t.Fatalf("session start injected %v", got)
	}
	if got := injected(context(t, e.runHook(t, "claude", e.bash("s", "make all")))); len(got) != 1 {
		t.Fatalf("first call injected %v", got)
	}
	if out := strings.TrimSpace(string(e.runHook(t, "claude", e.start("s", "resume")))); out != "{}" {
		t.Errorf("claude resume answered %s, want {} (the session still holds the protocol)", out)
	}
	if got := injected(context(t, e.runHook(t, "claude", e.bash("s", "make all")))); len(got) != 0 {
		t.Errorf("after a claude resume, which replays it, the call's lesson came again: %v", got)
	}

	start := func(source string) []byte {
		p, _ := json.Marshal(map[string]any{"session_id": "c", "turn_id": "t1", "cwd": e.project,
			"hook_event_name": "SessionStart", "source": source})
		return e.runHook(t, "codex", p)
	}
	if !strings.Contains(context(t, start("startup")), "#lesson") {
		t.Fatal("codex startup did not give the protocol")
	}
	for range 3 {
		if out := strings.TrimSpace(string(start("resume"))); out != "{}" {
			t.Errorf("codex resume answered %s, want {} (the session still holds the protocol)", out)
		}
	}
}

// TestGeminiSubagentsGetTheirOwnLessons: Gemini CLI runs a subagent
// inside its invoke_agent call, and the subagent's calls carry the
// parent's session_id and nothing else (0.61.0): between the call's
// BeforeTool and AfterTool they claim lessons for the subagent.
func TestGeminiSubagentsGetTheirOwnLessons(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), []scope.Resolved{resolved("make-lesson", 5, `\bmake\b`)})
	hook := func(event, tool string, input map[string]any) string {
		p, _ := json.Marshal(map[string]any{"session_id": "g", "cwd": e.project, "hook_event_name": event,
			"timestamp": "2026-11-24T10:00:00Z", "tool_name": tool, "tool_input": input})
		return string(e.runHook(t, "gemini", p))
	}
	shell := map[string]any{"command": "make all"}
	agent := map[string]any{"agent_name": "generalist", "prompt": "Build it."}
	if got := hook("AfterTool", "run_shell_command", shell); !strings.Contains(got, "make-lesson") {
		t.Fatalf("the parent's make got %s", got)
	}
	// The subagent gets the protocol at the end of its prompt, as Claude
	// Code's get it at SubagentStart.
	var started struct {
		Spec struct {
			ToolInput map[string]string `json:"tool_input"`
		} `json:"hookSpecificOutput"`
	}
	out := hook("BeforeTool", "invoke_agent", agent)
	if err := json.Unmarshal([]byte(out), &started); err != nil || started.Spec.ToolInput["agent_name"] != "generalist" ||
		!strings.HasPrefix(started.Spec.ToolInput["prompt"], "Build it.\n\n## Lessons: report what you learn") {
		t.Errorf("BeforeTool of invoke_agent answered %s", out)
	}
	if got := hook("AfterTool", "run_shell_command", shell); !strings.Contains(got, "make-lesson") {
		t.Errorf("the subagent's make got %s, want the lesson", got)
	}
	if got := hook("AfterTool", "run_shell_command", shell); strings.TrimSpace(got) != "{}" {
		t.Errorf("the subagent's second make got %s, want {} (once per subagent)", got)
	}
	hook("AfterTool", "invoke_agent", agent)
	if got := hook("AfterTool", "run_shell_command", shell); strings.TrimSpace(got) != "{}" {
		t.Errorf("the parent's make after the subagent got %s, want {}", got)
	}
}

// TestSubagentsGetTheirOwnLessons: a Claude Code subagent's calls carry
// its parent's session_id and an agent_id; the parent's claims once
// silenced every lesson in the subagent, whose context never had them.
func TestSubagentsGetTheirOwnLessons(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), []scope.Resolved{resolved("make-lesson", 5, `\bmake\b`)})
	if got := injected(context(t, e.runHook(t, "claude", e.bash("s", "make all")))); len(got) != 1 {
		t.Fatalf("parent's call injected %v", got)
	}
	sub := func() []byte {
		p, _ := json.Marshal(map[string]any{"session_id": "s", "agent_id": "a1", "agent_type": "general-purpose",
			"cwd": e.project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]string{"command": "make all"}})
		return e.runHook(t, "claude", p)
	}
	if got := injected(context(t, sub())); len(got) != 1 {
		t.Errorf("the subagent's first make got %v, want the lesson", got)
	}
	if got := injected(context(t, sub())); got != nil {
		t.Errorf("the subagent's second make got %v, want nothing (once per subagent)", got)
	}
}
