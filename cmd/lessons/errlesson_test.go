package main

import (
	"encoding/json"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// TestErrorLessonAfterTheFailure drives the built hook through a Claude
// Code session: a lesson on an error says nothing before the call, comes
// right after the failure it names, and leaves live capture no
// failure to nudge about, since the lesson is already written.
func TestErrorLessonAfterTheFailure(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	s := "sess-errlesson"
	if got := context(t, e.runHook(t, "claude", e.bash(s, "cargo build"))); got != "" {
		t.Errorf("a lesson on an error came before the call: %s", got)
	}
	// A failure that prints something else brings nothing.
	if got := context(t, e.runHook(t, "claude", e.failed(s, "cargo build", "Exit code 101\nerror[E0425]: cannot find value `x`"))); got != "" {
		t.Errorf("another error brought a lesson: %s", got)
	}
	got := context(t, e.runHook(t, "claude", e.failed(s, "cargo build", "Exit code 101\n   Compiling app\nerror: linker `cc` not found")))
	if !strings.Contains(got, "## Lesson: cargo cannot find the linker cc") || !strings.HasPrefix(got, "1 lesson after the error of this Bash call: cargo build") {
		t.Errorf("the failure's answer = %q", got)
	}
	// The lesson covered the failure: its fix asks for no lesson.
	if got := context(t, e.runHook(t, "claude", e.succeeded(s, "cargo build --offline"))); got != "" {
		t.Errorf("a failure a lesson covered was nudged at its fix: %s", got)
	}
	// The commands of the lesson must match the failed call too.
	if got := context(t, e.runHook(t, "claude", e.failed("sess-other", "make", "Exit code 2\nerror: linker `cc` not found"))); got != "" {
		t.Errorf("a lesson on cargo's error came after make: %s", got)
	}
}

// TestErrorLessonSaidAgainWhenItComesBack: the agent that makes a
// lesson's mistake again in the session hears the lesson again with the
// failure, up to sayAgain times (default 2), and with sayAgain 0 once;
// another session hears it afresh.
func TestErrorLessonSaidAgainWhenItComesBack(t *testing.T) {
	linker := "Exit code 101\n   Compiling app\nerror: linker `cc` not found"
	for _, tc := range []struct {
		name  string
		again *int
		heard int
	}{
		{"default", nil, 1 + lessons.DefaultSayAgain},
		{"sayAgain 1", new(1), 2},
		{"sayAgain 0", new(0), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			cfg := lessons.DefaultConfig()
			cfg.SayAgain = tc.again
			e.writeManifest(t, cfg, fixtureLessons())
			heard := 0
			for range 5 {
				if got := context(t, e.runHook(t, "claude", e.failed("sess-again", "cargo build", linker))); strings.Contains(got, "## Lesson: cargo cannot find the linker cc") {
					heard++
				}
			}
			if heard != tc.heard {
				t.Errorf("five failures with the lesson's error: heard it %d times, want %d", heard, tc.heard)
			}
			// Another session starts afresh.
			if got := context(t, e.runHook(t, "claude", e.failed("sess-next", "cargo build", linker))); !strings.Contains(got, "cargo cannot find the linker cc") {
				t.Errorf("a new session did not hear the lesson: %q", got)
			}
		})
	}

}

// TestErrorLessonOnAToolError: a lesson on an error is not only for
// shell commands: an Edit that Claude Code refused brings the lesson
// whose tools name Edit, and a Write with the same error does not.
func TestErrorLessonOnAToolError(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), []scope.Resolved{{Lesson: lessons.Lesson{
		ID: "01Jedit", Slug: "edit-read-first", Summary: "Read a file before editing it",
		Problem: "Edit refuses a file not read in this session.", Solution: "Read the file, then edit it.",
		Triggers: lessons.Trigger{Tools: []string{"Edit"}, Errors: []string{`has not been read yet`}},
	}, Scope: lessons.ScopeGlobal}})
	edit := func(tool string) []byte {
		p, _ := json.Marshal(map[string]any{
			"session_id": "sess-" + tool, "cwd": e.project, "hook_event_name": "PostToolUseFailure", "tool_name": tool,
			"tool_input":  map[string]string{"file_path": e.project + "/a.go", "old_string": "a", "new_string": "b", "content": "b"},
			"tool_use_id": "toolu_e", "error": "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
		})
		return p
	}
	if got := context(t, e.runHook(t, "claude", edit("Edit"))); !strings.Contains(got, "## Lesson: Read a file before editing it") {
		t.Errorf("Edit's failure answered %q", got)
	}
	if got := context(t, e.runHook(t, "claude", edit("Write"))); got != "" {
		t.Errorf("Write's failure brought an Edit lesson: %s", got)
	}
}
