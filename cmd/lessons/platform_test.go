package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// runHookArgs runs `lessons hook ARGS…` on a payload.
func (e *env) runHookArgs(t *testing.T, args []string, payload string, extraEnv ...string) string {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"hook"}, args...)...)
	cmd.Env = append(e.vars(), extraEnv...)
	cmd.Stdin = strings.NewReader(strings.ReplaceAll(payload, "$PROJECT", e.project))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("lessons hook %v: %v: %s", args, err, stderr.Bytes())
	}
	return strings.TrimSpace(string(out))
}

// TestPlatformChoice: --platform wins over $LESSONS_AGENT_PLATFORM, which
// wins over the payload's shape: Gemini CLI's timestamp, event and tool
// names, Codex's turn_id.
func TestPlatformChoice(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	const (
		gemini = `{"session_id":"g","cwd":"$PROJECT","hook_event_name":"BeforeTool","timestamp":"2025-11-22T10:30:00Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf \"$D\"/"}}`
		claude = `{"session_id":"c","cwd":"$PROJECT","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf \"$D\"/"}}`
		codex  = `{"session_id":"x","turn_id":"turn-1","cwd":"$PROJECT","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf \"$D\"/"}}`
	)
	geminiDeny := `{"decision":"deny","reason":`
	claudeAsk := `"permissionDecision":"ask"`
	codexDeny := `"permissionDecision":"deny"`
	for _, tt := range []struct {
		name    string
		args    []string
		env     []string
		payload string
		want    string
	}{
		{"gemini recognised", nil, nil, gemini, geminiDeny},
		{"codex recognised", nil, nil, codex, codexDeny},
		{"claude by default", nil, nil, claude, claudeAsk},
		{"environment", nil, []string{"LESSONS_AGENT_PLATFORM=codex"}, claude, codexDeny},
		{"flag wins", []string{"--platform", "claude"}, []string{"LESSONS_AGENT_PLATFORM=codex"}, codex, claudeAsk},
		{"flag with =", []string{"--platform=gemini"}, nil, claude, geminiDeny},
	} {
		if got := e.runHookArgs(t, tt.args, tt.payload, tt.env...); !strings.Contains(got, tt.want) {
			t.Errorf("%s: answered %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestCodexLessonsBeforeTheCall: Codex 0.169.0 gives the model the text
// a PreToolUse hook adds, in the same turn, so a call's lessons come at
// the call, once, and the next prompt does not bring them again.
func TestCodexLessonsBeforeTheCall(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	pre := e.payload(t, "codex-pretooluse-apply-patch")
	got := context(t, e.runHook(t, "codex", pre))
	if !strings.HasPrefix(got, "1 lesson for this Edit call") || !strings.Contains(got, "lessons injected: mock-patch-where-used") {
		t.Errorf("codex PreToolUse answered:\n%s", got)
	}
	if again := e.runHook(t, "codex", pre); strings.TrimSpace(string(again)) != "{}" {
		t.Errorf("the lesson came twice: %s", again)
	}
	prompt := e.runHook(t, "codex", []byte(`{"session_id":"019a7c1e-codex-patch","turn_id":"turn-7","cwd":"`+
		e.project+`","hook_event_name":"UserPromptSubmit","prompt":"continue"}`))
	if strings.Contains(string(prompt), "mock-patch-where-used") {
		t.Errorf("the next prompt brought the call's lesson again: %s", prompt)
	}
}

// TestGeminiLessonsComeAfterTheCall: Gemini CLI reads no text at
// BeforeTool, so a call's lessons come with its result, once.
func TestGeminiLessonsComeAfterTheCall(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	if got := string(e.runHook(t, "gemini", e.payload(t, "gemini-beforetool-shell-advisory"))); strings.TrimSpace(got) != "{}" {
		t.Fatalf("BeforeTool answered %s", got)
	}
	after := e.payload(t, "gemini-aftertool-shell")
	if got := string(e.runHook(t, "gemini", after)); !strings.Contains(got, `"hookEventName":"AfterTool","additionalContext":"1 lesson for this Bash call`) {
		t.Errorf("AfterTool answered %s", got)
	}
	if got := string(e.runHook(t, "gemini", after)); strings.TrimSpace(got) != "{}" {
		t.Errorf("the lesson came twice: %s", got)
	}
}

// TestAggregateInjection: with injectAggregates, a tool with enough
// lessons is injected as its one aggregated text, which stands for all of
// its lessons in the session.
func TestAggregateInjection(t *testing.T) {
	var ls []scope.Resolved
	for i, sub := range []string{"push", "rebase", "reset", "clean", "stash"} {
		r := resolved("git-"+sub, 5+i, `\bgit\s+`+sub+`\b`)
		r.Tags = []string{"tool:git"}
		ls = append(ls, r)
	}
	for _, inject := range []bool{false, true} {
		e := newEnv(t)
		cfg := lessons.DefaultConfig()
		cfg.InjectAggregates = inject
		e.writeManifest(t, cfg, ls)
		first := context(t, e.runHook(t, "claude", e.bash("s", "git rebase main")))
		second := string(e.runHook(t, "claude", e.bash("s", "git stash")))
		if !inject {
			if strings.Contains(first, "# Lessons for git") || strings.TrimSpace(second) == "{}" {
				t.Errorf("without injectAggregates: %s then %s", first, second)
			}
			continue
		}
		for _, want := range []string{"---\nname: lessons-git\n", "\n  - \"\\\\bgit\\\\s+push\\\\b\"\n", "# Lessons for git\n\n## Lesson: ", "lessons injected: aggregate-git -->"} {
			if !strings.Contains(first, want) {
				t.Errorf("aggregate lacks %q:\n%s", want, first)
			}
		}
		if strings.TrimSpace(second) != "{}" {
			t.Errorf("a lesson the aggregate held came again: %s", second)
		}
	}
}
