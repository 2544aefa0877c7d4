package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestOutcome(t *testing.T) {
	tests := []struct {
		name, platform, event, command, response, errJSON string
		tool                                              string
		interrupt                                         bool
		failed                                            bool
		errLine, reason                                   string
	}{
		{name: "claude failure", platform: "claude", event: "PostToolUseFailure", command: "npm test",
			errJSON: `"Exit code 1\n\nnpm ERR! missing script: test"`, failed: true, errLine: "npm ERR! missing script: test"},
		{name: "claude start-up file noise", platform: "claude", event: "PostToolUseFailure", command: "copy a.txt b.txt",
			errJSON: `"Exit code 127\n/c/Users/ann/.bashrc: line 1: gh: command not found\n/usr/bin/bash: line 1: copy: command not found"`,
			failed:  true, errLine: "/usr/bin/bash: line 1: copy: command not found"},
		{name: "claude timeout", platform: "claude", event: "PostToolUseFailure", command: "sleep 9",
			errJSON: `"Exit code 143\nCommand timed out after 2s"`, failed: true, errLine: "Command timed out after 2s"},
		{name: "claude pytest banner", platform: "claude", event: "PostToolUseFailure", command: "pytest",
			errJSON: `"Exit code 1\n============================= test session starts ==============================\nplatform linux\nE   assert 1 == 2\nFAILED tests/test_a.py::test_x"`,
			failed:  true, errLine: "FAILED tests/test_a.py::test_x"},
		{name: "claude traceback", platform: "claude", event: "PostToolUseFailure", command: "python x.py",
			errJSON: `"Exit code 1\nTraceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nModuleNotFoundError: No module named 'yaml'"`,
			failed:  true, errLine: "ModuleNotFoundError: No module named 'yaml'"},
		{name: "claude echoed script", platform: "claude", event: "PostToolUseFailure", command: "bun run lint",
			errJSON: `"Exit code 1\n$ biome check .\nsrc/a.ts:3:1 lint/style/useConst\n  x This let declares a variable that is only assigned once.\nChecked 4 files. Found 1 error."`,
			failed:  true, errLine: "Checked 4 files. Found 1 error."},
		{name: "claude git config unset", platform: "claude", event: "PostToolUseFailure", command: "git config --get user.signingkey",
			errJSON: `"Exit code 1"`},
		{name: "claude sibling", platform: "claude", event: "PostToolUseFailure", command: "git status",
			errJSON: `"<tool_use_error>Sibling tool call errored</tool_use_error>"`},
		{name: "claude's record of the directory failed after the command", platform: "claude", event: "PostToolUseFailure", command: "./gradlew test",
			errJSON: `"zsh:1: permission denied: /var/folders/zz/zyx/T/claude-46eb-cwd\n\nBUILD SUCCESSFUL in 11s"`},
		{name: "claude interrupt", platform: "claude", event: "PostToolUseFailure", command: "npm run dev",
			errJSON: `"Interrupted"`, interrupt: true},
		{name: "claude kill tool, process gone", platform: "claude", event: "PostToolUseFailure", tool: "KillShell",
			errJSON: `"Shell b7f3a1 is not running, so cannot be killed (status: killed)"`},
		{name: "claude task stop", platform: "claude", event: "PostToolUseFailure", tool: "TaskStop",
			errJSON: `"No task found with ID: b7f3a1"`},
		{name: "claude pkill ended its own shell", platform: "claude", event: "PostToolUseFailure", command: `pkill -f "vite --port 5173"`,
			errJSON: `"Exit code 143"`},
		{name: "claude pkill ended its own shell before a restart", platform: "claude", event: "PostToolUseFailure",
			command: `pkill -f "vite --port 5173"; sleep 1; npm run dev &`, errJSON: `"Exit code 143"`, failed: true},
		{name: "claude rejection", platform: "claude", event: "PostToolUseFailure", command: "git push",
			errJSON: `"The user doesn't want to proceed with this tool use. To tell you how to proceed, the user said:\nuse a branch"`, reason: "use a branch"},
		{name: "claude success", platform: "claude", event: "PostToolUse", command: "grep x f",
			response: `{"stdout":"","stderr":"","interrupted":false,"returnCodeInterpretation":"No matches found"}`},
		{name: "codex exit line", platform: "codex", event: "PostToolUse", command: "go build",
			response: `"Exit code: 2\nWall time: 1 seconds\nOutput:\nmain.go:1: syntax error"`, failed: true, errLine: "main.go:1: syntax error"},
		{name: "codex process exited", platform: "codex", event: "PostToolUse", command: "make",
			response: `"Chunk ID: 1\nProcess exited with code 2\nOutput:\nmake: *** no rule"`, failed: true, errLine: "make: *** no rule"},
		{name: "codex shell refusal", platform: "codex", event: "PostToolUse", command: "curl x?y",
			response: `"zsh:1: no matches found: x?y\n"`, failed: true, errLine: "zsh:1: no matches found: x?y"},
		{name: "codex command not found", platform: "codex", event: "PostToolUse", command: "jq .",
			response: `"bash: line 1: jq: command not found"`, failed: true, errLine: "bash: line 1: jq: command not found"},
		{name: "codex silent failure looks fine", platform: "codex", event: "PostToolUse", command: "false", response: `""`},
		{name: "codex rg no match", platform: "codex", event: "PostToolUse", command: "rg TODO",
			response: `"Process exited with code 1\nOutput:\n"`},
		{name: "codex rg usage error", platform: "codex", event: "PostToolUse", command: "rg -foo",
			response: `"Process exited with code 2\nOutput:\nrg: unrecognized flag -f"`, failed: true, errLine: "rg: unrecognized flag -f"},
		{name: "gemini exit code", platform: "gemini", event: "PostToolUse", command: "npm test",
			response: `{"llmContent":"Output: (empty)\nError: boom\nExit Code: 1","returnDisplay":"x"}`, failed: true, errLine: "Error: boom"},
		{name: "gemini parts", platform: "gemini", event: "PostToolUse", command: "npm test",
			response: `{"llmContent":[{"text":"Output: npm ERR! x\nExit Code: 1"}]}`, failed: true, errLine: "npm ERR! x"},
		{name: "gemini tool error", platform: "gemini", event: "PostToolUse", command: "",
			response: `{"llmContent":"","error":{"message":"File not found: a.go","type":"file_not_found"}}`, failed: true, errLine: "File not found: a.go"},
		{name: "gemini success", platform: "gemini", event: "PostToolUse", command: "ls",
			response: `{"llmContent":"Output: a b\nProcess Group PGID: 12"}`},
		{name: "gemini diff differs", platform: "gemini", event: "PostToolUse", command: "diff a b",
			response: `{"llmContent":"Output: < x\nExit Code: 1"}`},
		{name: "opencode exit", platform: "opencode", event: "PostToolUse", command: "npm test",
			response: `{"output":"sh: jest: not found","metadata":{"exit":127}}`, failed: true, errLine: "sh: jest: not found"},
		{name: "opencode grep no match", platform: "opencode", event: "PostToolUse", command: "grep -r x .",
			response: `{"output":"","metadata":{"exit":1}}`},
		{name: "opencode thrown", platform: "opencode", event: "PostToolUseFailure", command: "",
			errJSON: `"Error: oldString not found in content"`, failed: true, errLine: "Error: oldString not found in content"},
		{name: "opencode rejection", platform: "opencode", event: "PostToolUseFailure", command: "",
			errJSON: `"The user rejected permission to use this specific tool call with the following feedback: not in prod"`, reason: "not in prod"},
		{name: "opencode rejection without feedback", platform: "opencode", event: "PostToolUseFailure", command: "",
			errJSON: `"The user rejected permission to use this specific tool call."`, failed: true, errLine: "The user rejected permission to use this specific tool call."},
	}
	for _, tt := range tests {
		p := Payload{IsInterrupt: tt.interrupt, ToolName: tt.tool}
		if tt.response != "" {
			p.ToolResponse = json.RawMessage(tt.response)
		}
		if tt.errJSON != "" {
			p.Error = json.RawMessage(tt.errJSON)
		}
		got := p.outcome(tt.platform, tt.event, tt.command)
		if got.failed != tt.failed || got.errLine != tt.errLine || got.reason != tt.reason {
			t.Errorf("%s: outcome = %+v, want failed %v, errLine %q, reason %q", tt.name, got, tt.failed, tt.errLine, tt.reason)
		}
	}
}

func TestScrub(t *testing.T) {
	tests := []struct{ in, want string }{
		{"curl -H 'Authorization: Bearer abc.def' https://x", "curl -H 'Authorization: Bearer [REDACTED]' https://x"},
		{"GITHUB_TOKEN=ghp_x npm publish", "GITHUB_TOKEN=[REDACTED] npm publish"},
		{"git clone https://bob:hunter2@example.com/r.git", "git clone https://bob:[REDACTED]@example.com/r.git"},
		{"redis-cli -a R3d1sP4ss-w0rd ping", "redis-cli -a [REDACTED] ping"},
		{"mysql -u root -pTr0ub4dor3 db", "mysql -u root -p[REDACTED] db"},
		{"export SENDGRID=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", "export SENDGRID=[REDACTED]"},
		{"psql --password s3cret -h db", "psql --password [REDACTED] -h db"},
		{"echo sk-proj-abcdefghijklmnop", "echo [REDACTED]"},
		{"key AKIAIOSFODNN7EXAMPLE!", "key [REDACTED]!"},
		{"run \"Xy8f0Qz2Lm4Np6Rt8Vw0Yb2Cd4Ef6Gh8Jk\" now", "run \"[REDACTED]\" now"},
		{"npm   test\t-- --ci", "npm test -- --ci"},
		{"syntax error near unexpected token `fi'", "syntax error near unexpected token `fi'"},
		{"a\x1b[31mred\x07", "a [31mred"},
	}
	for _, tt := range tests {
		if got := scrub(tt.in); got != tt.want {
			t.Errorf("scrub(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNudgesFit(t *testing.T) {
	long := strings.Repeat("é", 500)
	for _, text := range []string{
		fixNudge(failure{Family: strings.Repeat("x", 100), Error: long}),
		fixNudge(failure{Family: "npm test"}),
		rejectionNudge(long),
	} {
		if len(text) > maxNudge || !strings.Contains(text, "#lesson block") || !strings.Contains(text, "write nothing") {
			t.Errorf("nudge of %d bytes: %s", len(text), text)
		}
		if strings.ContainsAny(text, "<>") {
			t.Errorf("nudge has angle brackets: %s", text)
		}
	}
}

// TestScrubLongCommand: a command of megabytes is scrubbed in bounded
// time, and what callers keep of it still hides its secret.
func TestScrubLongCommand(t *testing.T) {
	long := "mysql -u root -pTr0ub4dor3xyz shop " + strings.Repeat("--verbose ", 3<<20)
	start := time.Now()
	got := clip(scrub(long), 600)
	if d := time.Since(start); d > time.Second {
		t.Errorf("scrub of %d bytes took %v", len(long), d)
	}
	if strings.Contains(got, "Tr0ub4dor3xyz") || !strings.HasPrefix(got, "mysql -u root -p[REDACTED] shop") {
		t.Errorf("scrub = %.80q…", got)
	}
}
