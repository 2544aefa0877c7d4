package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeSession writes a Claude Code session: each prompt typed, then one
// ls call that works.
func claudeSession(t *testing.T, dir string, prompts ...string) {
	t.Helper()
	var b strings.Builder
	line := func(v map[string]any) {
		data, _ := json.Marshal(v)
		b.Write(data)
		b.WriteByte('\n')
	}
	for i, p := range prompts {
		base := map[string]any{"sessionId": "p1", "cwd": "/home/dev/app", "timestamp": fmt.Sprintf("2025-01-01T10:00:%02dZ", 3*i)}
		with := func(kv ...any) map[string]any {
			m := map[string]any{}
			for k, v := range base {
				m[k] = v
			}
			for j := 0; j < len(kv); j += 2 {
				m[kv[j].(string)] = kv[j+1]
			}
			return m
		}
		id := fmt.Sprintf("t%d", i)
		line(with("type", "user", "uuid", "u"+id, "message", map[string]any{"role": "user", "content": p}))
		line(with("type", "assistant", "uuid", "a"+id, "message", map[string]any{"role": "assistant",
			"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": "ls"}}}}))
		line(with("type", "user", "uuid", "r"+id, "message", map[string]any{"role": "user",
			"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "Makefile"}}}))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p1.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Replay runs a session's typed prompts through the hook's prompt-time
// selection and reports them per 100 prompts: nothing with promptLessons
// off (the default), the dev-server lesson once with it on (claimed the
// second time), nothing for a prompt that names no lesson's subject; the
// trace has a line per prompt, before the call that followed it, with
// its size (not its text) and what fired, and the prompt-time figures
// recount from it.
func TestE2EReplayPrompts(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs", "claude")
	claudeSession(t, logs, "start the dev server", "start the dev server again", "rename the Invoice class to Bill")
	type prompts struct {
		Prompts          int     `json:"prompts"`
		PromptInjections int     `json:"promptInjections"`
		PromptBytes      int64   `json:"promptBytes"`
		InjectionsPer100 float64 `json:"promptInjectionsPer100Prompts"`
		BytesPer100      float64 `json:"promptBytesPer100Prompts"`
	}
	trace := filepath.Join(s.root, "trace.jsonl")
	run := func(env ...string) (prompts, string) {
		saved := s.env
		s.env = append(append([]string(nil), s.env...), env...)
		defer func() { s.env = saved }()
		r := s.ok(s.root, "replay", "--json", "--path", filepath.Dir(logs), "--trace", trace)
		var p prompts
		if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
			t.Fatal(err)
		}
		var rep replayJSON
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatal(err)
		}
		recount(t, readTrace(t, trace), rep)
		return p, s.ok(s.root, "replay", "--path", filepath.Dir(logs)).stdout
	}
	// promptLines are the trace's prompt lines and the calls after them,
	// in a line each: kind, index, bytes or command, fired slugs.
	promptLines := func() string {
		data, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "dev server") {
			t.Errorf("the trace holds a prompt's text:\n%s", data)
		}
		var got []string
		for _, l := range readTrace(t, trace) {
			var fired []string
			for _, f := range l.Fired {
				slug := f.Slug
				if strings.HasPrefix(slug, "dev-server") {
					slug = "dev-server" // its slug's suffix is its id's
				}
				fired = append(fired, slug+"/"+f.At)
			}
			what := l.Command
			if l.Kind == "prompt" {
				what = fmt.Sprintf("%d bytes before call %d, %d injected", l.Bytes, l.Before, l.InjectedBytes)
			}
			got = append(got, fmt.Sprintf("%s %d %s %v", l.Kind, l.Index, what, fired))
		}
		return strings.Join(got, "\n")
	}
	off, text := run()
	if got, want := promptLines(), `prompt 0 20 bytes before call 0, 0 injected []
call 0 ls []
prompt 1 26 bytes before call 1, 0 injected []
call 1 ls []
prompt 2 32 bytes before call 2, 0 injected []
call 2 ls []`; got != want {
		t.Errorf("promptLessons off: trace\n%s\nwant\n%s", got, want)
	}
	if off.Prompts != 3 || off.PromptInjections != 0 || off.PromptBytes != 0 {
		t.Errorf("promptLessons off: %+v, want 3 prompts and no injection", off)
	}
	if !strings.Contains(text, "prompt-time injections: 0 (0.00 per 100 prompts), 0 bytes of lesson text (0 per 100 prompts), 3 prompts\n") {
		t.Errorf("replay output lacks the prompt-time line:\n%s", text)
	}
	on, text := run("LESSONS_PROMPT_LESSONS=on")
	if got, want := promptLines(), fmt.Sprintf(`prompt 0 20 bytes before call 0, %d injected [dev-server/prompt]
call 0 ls []
prompt 1 26 bytes before call 1, 0 injected []
call 1 ls []
prompt 2 32 bytes before call 2, 0 injected []
call 2 ls []`, on.PromptBytes); got != want {
		t.Errorf("promptLessons on: trace\n%s\nwant\n%s", got, want)
	}
	if on.Prompts != 3 || on.PromptInjections != 1 || on.PromptBytes < 100 || on.InjectionsPer100 != 33.33 ||
		fmt.Sprintf("%.2f", on.BytesPer100) != fmt.Sprintf("%.2f", float64(on.PromptBytes)*100/3) {
		t.Errorf("promptLessons on: %+v, want 3 prompts, 1 injection of the dev-server lesson", on)
	}
	if want := fmt.Sprintf("prompt-time injections: 1 (33.33 per 100 prompts), %d bytes", on.PromptBytes); !strings.Contains(text, want) {
		t.Errorf("replay output lacks %q:\n%s", want, text)
	}
}
