package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// failed is Claude Code's PostToolUseFailure for a Bash call.
func (e *env) failed(session, command, errText string) []byte {
	p, _ := json.Marshal(map[string]any{
		"session_id": session, "cwd": e.project, "hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
		"tool_input": map[string]string{"command": command}, "tool_use_id": "toolu_f", "error": errText, "is_interrupt": false,
	})
	return p
}

// succeeded is Claude Code's PostToolUse for a Bash call.
func (e *env) succeeded(session, command string) []byte {
	p, _ := json.Marshal(map[string]any{
		"session_id": session, "cwd": e.project, "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input": map[string]string{"command": command}, "tool_use_id": "toolu_s",
		"tool_response": map[string]any{"stdout": "ok", "stderr": "", "interrupted": false},
	})
	return p
}

// nudge is the answer's text when it asks for a #lesson block, else "".
func nudge(t *testing.T, out []byte) string {
	t.Helper()
	text := context(t, out)
	if text != "" && !strings.Contains(text, "#lesson block") {
		t.Fatalf("an outcome event answered with something else: %s", text)
	}
	return text
}

func TestLiveCaptureNudgesAtTheFix(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	s := "sess-fix"
	if got := nudge(t, e.runHook(t, "claude", e.failed(s, "npm test", "Exit code 1\nsh: jest: not found (key sk-abcdefghijklmnopqrstuv)"))); got != "" {
		t.Errorf("the failure itself was answered: %s", got)
	}
	// The record holds the family and the error's line, its secret gone.
	records, _ := filepath.Glob(filepath.Join(e.state, "sessions", engine.SessionHash(s)+".capture", "f-*"))
	if len(records) != 1 {
		t.Fatalf("capture records = %v, want one", records)
	}
	if data := string(must(os.ReadFile(records[0]))); strings.Contains(data, "sk-abc") || !strings.Contains(data, "sh: jest: not found") {
		t.Errorf("capture record = %s", data)
	}
	// An unrelated success answers nothing and leaves the record.
	if got := nudge(t, e.runHook(t, "claude", e.succeeded(s, "git status"))); got != "" {
		t.Errorf("an unrelated call was answered: %s", got)
	}
	got := nudge(t, e.runHook(t, "claude", e.succeeded(s, "npm install --save-dev jest && npm test")))
	if !strings.Contains(got, "`npm test` failed earlier") || !strings.Contains(got, "sh: jest: not found") || len(got) > 400 {
		t.Errorf("the fix's answer = %q (%d bytes)", got, len(got))
	}
	if strings.Contains(got, "sk-abc") {
		t.Errorf("the nudge shows a secret: %s", got)
	}
	// Once per family: the same mistake and fix again say nothing.
	e.runHook(t, "claude", e.failed(s, "npm test", "Exit code 1\nfailed again"))
	if got := nudge(t, e.runHook(t, "claude", e.succeeded(s, "npm test -- --ci"))); got != "" {
		t.Errorf("a family was nudged twice: %s", got)
	}
	// The event log has the one nudge, with its agent; stats counts it.
	rep, err := engine.Stats(e.state, nil, 30, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Nudges) != 1 || rep.Nudges[0].Agent != "claude" || rep.Nudges[0].Nudges != 1 || rep.Nudges[0].Sessions != 1 ||
		rep.Nudges[0].SessionHashes[0] != engine.SessionHash(s) || rep.Skipped != 0 {
		t.Errorf("stats nudges = %+v (skipped %d)", rep.Nudges, rep.Skipped)
	}
}

func TestLiveCaptureStaysQuiet(t *testing.T) {
	cases := []struct {
		name, fail, fix string
		cfg             func(*lessons.Config)
		env             []string
	}{
		{name: "the same call worked", fail: "npm test", fix: "npm  test"},
		{name: "a probe failed", fail: "ls dist", fix: "ls build"},
		{name: "a pipe hides the status", fail: "npm test", fix: "npm test 2>&1 | tail -20"},
		{name: "a help probe", fail: "terraform plan --help", fix: "terraform plan -h"},
		{name: "an active lesson matches the failure", fail: "pytest -x tests", fix: "pytest -x tests < /dev/null"},
		{name: "captureNudges 0 in the config", fail: "npm test", fix: "CI=1 npm test",
			cfg: func(c *lessons.Config) { c.CaptureNudges = new(0) }},
		{name: "LESSONS_CAPTURE_NUDGES=0", fail: "npm test", fix: "CI=1 npm test", env: []string{"LESSONS_CAPTURE_NUDGES=0"}},
		{name: "another session's failure", fail: "npm test", fix: "CI=1 npm test"},
		{name: "a /clear in between", fail: "npm test", fix: "CI=1 npm test"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			cfg := lessons.DefaultConfig()
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			e.writeManifest(t, cfg, fixtureLessons())
			fixSession := "s"
			if strings.HasPrefix(c.name, "another") {
				fixSession = "other"
			}
			e.runHook(t, "claude", e.failed("s", c.fail, "Exit code 2\nit failed"), c.env...)
			if strings.Contains(c.name, "/clear") {
				e.runHook(t, "claude", e.start("s", "clear"))
			}
			if got := nudge(t, e.runHook(t, "claude", e.succeeded(fixSession, c.fix), c.env...)); got != "" {
				t.Errorf("nudged: %s", got)
			}
			if log, err := os.ReadFile(engine.EventsPath(e.state)); err == nil && strings.Contains(string(log), `"event":"nudge"`) {
				t.Errorf("the event log has a nudge: %s", log)
			}
		})
	}
}

func TestLiveCaptureLimit(t *testing.T) {
	e := newEnv(t)
	cfg := lessons.DefaultConfig()
	cfg.CaptureNudges = new(2)
	e.writeManifest(t, cfg, fixtureLessons())
	nudges := 0
	for _, tool := range []string{"make", "cargo", "docker"} {
		e.runHook(t, "claude", e.failed("s", tool+" build", "Exit code 1\nbroken"))
		if nudge(t, e.runHook(t, "claude", e.succeeded("s", tool+" build --release"))) != "" {
			nudges++
		}
	}
	if nudges != 2 {
		t.Errorf("nudges with captureNudges 2 = %d", nudges)
	}
	// The limit is per session.
	e.runHook(t, "claude", e.failed("t", "make build", "Exit code 1\nbroken"))
	if nudge(t, e.runHook(t, "claude", e.succeeded("t", "make -j4 build"))) == "" {
		t.Error("another session got no nudge")
	}
}

func TestLiveCaptureRejection(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	rejected := func(reason string) []byte {
		return e.failed("s", "git push origin main", "The user doesn't want to proceed with this tool use. The tool use was rejected "+
			"(eg. if it was a file edit, the new_string was NOT written to the file)."+reason)
	}
	if got := nudge(t, e.runHook(t, "claude", rejected(""))); got != "" {
		t.Errorf("a rejection without a reason was answered: %s", got)
	}
	got := nudge(t, e.runHook(t, "claude", rejected(" To tell you how to proceed, the user said:\nopen a pull request instead")))
	if !strings.Contains(got, `saying: "open a pull request instead"`) {
		t.Errorf("the rejection's answer = %q", got)
	}
}
