package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
)

// With promptLessons unset, a prompt that names a lesson's subject gets
// no lesson from the built hook; LESSONS_PROMPT_LESSONS=on brings it.
func TestPromptLessonsOffByDefault(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	payload := e.payload(t, "claude-userpromptsubmit")
	if got := strings.TrimSpace(string(e.runHook(t, "claude", payload))); got != "{}" {
		t.Errorf("prompt with promptLessons unset answered %s, want {}", got)
	}
	if got := string(e.runHook(t, "claude", payload, "LESSONS_PROMPT_LESSONS=on")); !strings.Contains(got, "dockerignore-build-context") {
		t.Errorf("prompt with LESSONS_PROMPT_LESSONS=on answered %s, want the build-context lesson", got)
	}
}

// A megabyte of unclosed <hook_context> tags, Gemini-escaped or not, and
// a fence never closed are answered by the built hook well within the
// watchdog: stripping a prompt is linear in its length (the old strip
// took 26 s for this one).
func TestPromptHostileLinear(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	for _, prompt := range []string{
		strings.Repeat("<hook_context>docker build ", 1<<20/27),
		strings.Repeat("&lt;hook_context&gt;x ", 1<<20/22),
		"fix it\n```\n" + strings.Repeat("<hook_context>\n", 1<<16),
	} {
		payload, _ := json.Marshal(map[string]any{"session_id": "big", "cwd": e.project, "hook_event_name": "UserPromptSubmit", "prompt": prompt})
		start := time.Now()
		out := e.runHook(t, "claude", payload, "LESSONS_PROMPT_LESSONS=on")
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("a %d-byte prompt took %v, want under 2s", len(prompt), d)
		}
		if !json.Valid(out) {
			t.Errorf("answer %q is not JSON", out)
		}
	}
}
