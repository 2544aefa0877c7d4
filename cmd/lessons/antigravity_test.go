package main

import (
	"encoding/json"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

// agyCall is an Antigravity CLI PreToolUse or PostToolUse payload.
func agyCall(conversation, tool, args string) string {
	return `{"conversationId":"` + conversation + `","workspacePaths":["$PROJECT"],"stepIdx":3,` +
		`"toolCall":{"name":"` + tool + `","args":` + args + `}}`
}

// agyAnswer is what Antigravity CLI reads in an answer.
type agyAnswer struct {
	AllowTool   *bool  `json:"allowTool"`
	DenyReason  string `json:"denyReason"`
	Decision    string `json:"decision"`
	Reason      string `json:"reason"`
	InjectSteps []struct {
		EphemeralMessage string `json:"ephemeralMessage"`
	} `json:"injectSteps"`
}

func parseAgy(t *testing.T, out string) agyAnswer {
	t.Helper()
	var a agyAnswer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("answer %q: %v", out, err)
	}
	return a
}

// TestAntigravitySession drives the hook as Antigravity CLI does in one
// conversation: every PreToolUse answer carries a decision (agy reads {}
// as a refusal); a call's lessons come at the next PreInvocation, the
// first of which also brings the protocol; nothing comes twice.
func TestAntigravitySession(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	hook := func(event, payload string) agyAnswer {
		return parseAgy(t, e.runHookArgs(t, []string{"--platform", "antigravity", "--event", event}, payload))
	}
	allowed := func(a agyAnswer) bool { return a.AllowTool != nil && *a.AllowTool && a.Decision == "allow" }

	calls := []struct{ tool, args, slug string }{
		{"run_command", `{"CommandLine":"pytest -x tests/","Cwd":"$PROJECT"}`, "pytest-hangs-on-tty"},
		{"view_file", `{"AbsolutePath":"$PROJECT/.env"}`, "dotenv-holds-secrets"},
		{"write_to_file", `{"TargetFile":"$PROJECT/t/test_a.py","CodeContent":"@mock.patch('a.b')\ndef test(): pass\n"}`, "mock-patch-where-used"},
		{"multi_replace_file_content", `{"TargetFile":"web/api.ts","ReplacementChunks":[{"TargetContent":"x","ReplacementContent":"const r = fetch('/u')"}]}`, "forgotten-await-fetch"},
	}
	for _, c := range calls {
		if a := hook("PreToolUse", agyCall("conv-1", c.tool, c.args)); !allowed(a) {
			t.Errorf("PreToolUse %s = %+v, want an explicit allow", c.tool, a)
		}
	}
	if out := e.runHookArgs(t, []string{"--platform", "antigravity", "--event", "PostToolUse"}, agyCall("conv-1", "run_command", `{"CommandLine":"pytest"}`)); out != "{}" {
		t.Errorf("PostToolUse = %s, want {}", out)
	}
	first := hook("PreInvocation", `{"conversationId":"conv-1","workspacePaths":["$PROJECT"],"stepIdx":4}`)
	if len(first.InjectSteps) != 1 {
		t.Fatalf("first PreInvocation = %+v, want one injected step", first)
	}
	text := first.InjectSteps[0].EphemeralMessage
	if !strings.HasPrefix(text, "## Lessons: report what you learn") {
		t.Errorf("first PreInvocation does not start with the protocol: %.80q", text)
	}
	for _, c := range calls[:3] { // three lessons a message, the fourth waits
		if !strings.Contains(text, c.slug) {
			t.Errorf("first PreInvocation lacks %s (from %s): %s", c.slug, c.tool, text)
		}
	}
	if strings.Contains(text, "<!--") {
		t.Errorf("injected text keeps an HTML comment: %s", text)
	}
	second := hook("PreInvocation", `{"conversationId":"conv-1","workspacePaths":["$PROJECT"],"stepIdx":6}`)
	if len(second.InjectSteps) != 1 || strings.Contains(second.InjectSteps[0].EphemeralMessage, "report what you learn") ||
		!strings.Contains(second.InjectSteps[0].EphemeralMessage, calls[3].slug) {
		t.Errorf("second PreInvocation = %+v, want only %s", second, calls[3].slug)
	}
	if out := e.runHookArgs(t, []string{"--platform", "antigravity", "--event", "PreInvocation"}, `{"conversationId":"conv-1","workspacePaths":["$PROJECT"]}`); out != "{}" {
		t.Errorf("third PreInvocation = %s, want {}", out)
	}
	// The same call in the same conversation brings nothing again.
	hook("PreToolUse", agyCall("conv-1", "run_command", `{"CommandLine":"pytest -q"}`))
	if out := e.runHookArgs(t, []string{"--platform", "antigravity", "--event", "PreInvocation"}, `{"conversationId":"conv-1","workspacePaths":["$PROJECT"]}`); out != "{}" {
		t.Errorf("PreInvocation after a repeated call = %s, want {}", out)
	}
}

// TestAntigravityBlocks: a refusal satisfies both documented forms, and
// the payload's shape alone, with no --platform, is enough to answer as
// Antigravity CLI; anything that goes wrong at PreToolUse still allows.
func TestAntigravityBlocks(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	push := agyCall("conv-2", "run_command", `{"CommandLine":"git push --force origin main"}`)
	for _, args := range [][]string{
		{"--platform", "antigravity", "--event", "PreToolUse"},
		{"--event", "pretooluse"},     // recognised from camelCase; agy's event names ignore case
		{"--platform", "antigravity"}, // a hand-written hooks.json: a toolCall is a call to decide on
		{},                            // neither: the payload says both
	} {
		a := parseAgy(t, e.runHookArgs(t, args, push))
		if a.AllowTool == nil || *a.AllowTool || a.Decision != "deny" || a.DenyReason == "" || a.Reason != a.DenyReason ||
			!strings.Contains(a.Reason, "--force-with-lease") {
			t.Errorf("hook %v on a force push = %+v, want allowTool false and decision deny with the lesson's reason", args, a)
		}
	}
	for name, payload := range map[string]string{
		"not JSON":     `{"conversationId": `,
		"no tool call": `{"conversationId":"conv-3"}`,
		"bad args":     agyCall("conv-3", "run_command", `"echo"`),
	} {
		out := e.runHookArgs(t, []string{"--platform", "antigravity", "--event", "PreToolUse"}, payload)
		if a := parseAgy(t, out); a.AllowTool == nil || !*a.AllowTool || a.Decision != "allow" {
			t.Errorf("%s: PreToolUse answered %s, want an explicit allow", name, out)
		}
	}
}
