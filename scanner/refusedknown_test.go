package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// bash is a shell call with the given input fields besides its command;
// failed with out as its error, or fine with out as its output.
func bash(cmd string, failed bool, out string, fields ...any) step {
	input := map[string]any{"command": cmd}
	for i := 0; i+1 < len(fields); i += 2 {
		input[fields[i].(string)] = fields[i+1]
	}
	return call("Bash", input, failed, out)
}

// TestRefusalAfterAChangeIsKnown: a hook of the agent's set-up refuses
// `git commit` on the main branch; the agent makes a branch and the same
// commit goes through. Every session had written a file first. A
// refusal does not come from the session's work, and the commit that
// went through on the branch did not meet it: a known failure of the
// hook, said right after the refusal in the hook's own words (a
// reminder), never proposed.
func TestRefusalAfterAChangeIsKnown(t *testing.T) {
	hook := "PreToolUse:Bash hook error: [.claude/hooks/branch.sh]: BLOCK: Do not commit to main. Create a feature branch first."
	known := knownInSessions(t, 2,
		write("/p/docs/plan.md", "# plan"),
		bash("git commit -m 'docs: plan'", true, hook),
		bash("git checkout -b docs-plan", false, "Switched to a new branch 'docs-plan'"),
		bash("git commit -m 'docs: plan'", false, "[docs-plan 1a2b3c4] docs: plan"),
	)
	if len(known) != 1 {
		t.Fatalf("%d known failures, want 1 of the hook's refusal", len(known))
	}
	c, cfg := known[0], lessons.DefaultConfig()
	if len(c.Sessions) != 2 || c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
		t.Errorf("seen in %d sessions, confidence %.2f, reminder %v: want both sessions, said after the refusal, not proposed",
			len(c.Sessions), c.Confidence, c.Reminder(cfg))
	}
	if !strings.HasPrefix(c.Summary, "A hook refuses `git commit` here: BLOCK: Do not commit to main") || !strings.Contains(c.Solution, "Do what it asks") ||
		strings.Contains(c.Solution, "before any change") || strings.Contains(c.Solution, "revert") {
		t.Errorf("summary %q, solution %q: want the hook named as what refused, and to do what it asks", c.Summary, c.Solution)
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString(hook); !ok {
		t.Errorf("error trigger %q does not match the refusal", c.Triggers.Errors[0])
	}
}

// TestRefusalLetThroughIsNoKnownFailure: a hook that refuses a call once
// and lets the same call through right after only warned; a sandbox that
// refused a command the same command got past out of the sandbox is the
// lesson on its error, not a known failure.
func TestRefusalLetThroughIsNoKnownFailure(t *testing.T) {
	warned := knownInSessions(t, 2,
		write("/p/app/main.js", "run()"),
		call("Edit", map[string]any{"file_path": "/p/app/eval.js", "old_string": "a", "new_string": "new Function(src)"}, true,
			"PreToolUse:Edit hook error: [python3 ${CLAUDE_PLUGIN_ROOT}/hooks/security_reminder_hook.py]: ⚠️ Security Warning: new Function() with dynamic strings"),
		call("Edit", map[string]any{"file_path": "/p/app/eval.js", "old_string": "a", "new_string": "new Function(src)"}, false, "The file has been updated."),
	)
	if len(warned) != 0 {
		t.Errorf("a hook that let the same edit through right after: known failures %q, want none", warned[0].Summary)
	}
	sandboxed := knownInSessions(t, 2,
		write("/p/srv/main_test.go", "package srv"),
		bash("go test ./srv/...", true, "listen tcp 127.0.0.1:0: bind: operation not permitted"),
		bash("go test ./srv/...", false, "ok  \tshop/srv\t0.2s", "dangerouslyDisableSandbox", true),
	)
	if len(sandboxed) != 0 {
		t.Errorf("a refusal got past out of the sandbox: known failures %q, want none", sandboxed[0].Summary)
	}
}

// TestShellRefusalAfterAChangeIsKnown: zsh refuses a command line whose
// unquoted glob matched no file, after the session's edits, and later
// calls of the same program (without the glob) work. Those calls did not
// get past the refusal; the lesson says the shell refused and to write
// the command line so it takes it, not that the checkout fails.
func TestShellRefusalAfterAChangeIsKnown(t *testing.T) {
	known := knownInSessions(t, 2,
		write("/p/auth/token.go", "package auth"),
		run("rg -n 'credential' internal *_test.go", 1, "zsh:1: no matches found: *_test.go"),
		run("sed -n '1,80p' internal/auth/token.go", 0, "package auth"),
		run("rg -n 'Token' internal", 0, "internal/auth/token.go:3:type Token struct{}"),
	)
	if len(known) != 1 {
		t.Fatalf("%d known failures, want 1 of the shell's refusal", len(known))
	}
	c, cfg := known[0], lessons.DefaultConfig()
	if len(c.Sessions) != 2 || !c.Reminder(cfg) || c.Confidence >= cfg.MinConfidence {
		t.Errorf("seen in %d sessions, confidence %.2f, reminder %v: want both sessions, said after the refusal, not proposed",
			len(c.Sessions), c.Confidence, c.Reminder(cfg))
	}
	if !strings.HasPrefix(c.Solution, "The shell refused") || strings.Contains(c.Solution, "checkout") || strings.Contains(c.Summary, "before any change") {
		t.Errorf("summary %q, solution %q: want the shell named as what refused", c.Summary, c.Solution)
	}
}

// TestHookMessage: what a hook that refused a call said, or, when it
// printed nothing to stderr, its command, where an inline hook says it.
func TestHookMessage(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"PreToolUse:Write hook error: [${CLAUDE_PLUGIN_ROOT}/hooks/validate.py]: Files here must start with front matter.\nExpected: ---",
			"Files here must start with front matter."},
		{"PreToolUse:Bash hook error: [jq -r '.tool_input.command' | grep -q 'git commit' && [ \"$(git branch --show-current)\" = main ] && echo 'Branch first' && exit 2 || exit 0]: No stderr output",
			"[jq -r '.tool_input.command' | grep -q 'git commit' && [ \"$(git branch --show-current)\" = main ] && echo 'Branch first' && exit 2 || exit 0]"},
		{"Command blocked by PreToolUse hook: commits go through the release branch", "commits go through the release branch"},
		{"Tool execution blocked: no writes under vendor/", "no writes under vendor/"},
		{"error: pathspec 'x' did not match any file(s) known to git", ""},
		{"PreToolUse:Bash hook error: [/usr/local/bin/lessons hook --platform claude]: Use pnpm here, not npm.", ""}, // a blocking lesson's
	} {
		if got := hookMessage(tt.out); got != tt.want {
			t.Errorf("hookMessage(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}

// TestPromptWithNoTerminalIsARefusal: sudo asks for a password, git for
// a username, where the agent's shell has no terminal to type it in,
// session after session, whatever the command. The lesson says the
// environment refused it and to ask the user, not that the command fails
// on the checkout, and its error trigger meets the same refusal of
// another command (sudo's of another program, git's met by go get).
func TestPromptWithNoTerminalIsARefusal(t *testing.T) {
	for _, c := range []struct {
		cmd, out, head, other string
		exit                  int
	}{
		{"sudo pacman -Syu --noconfirm", "sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper\nsudo: a password is required",
			"pacman", "sudo: a password is required", 1},
		{"git clone https://github.com/acme/billing.git", "Cloning into 'billing'...\nfatal: could not read Username for 'https://github.com': No such device or address",
			"git clone", "go: github.com/acme/ledger@v1.2.0: fatal: could not read Username for 'https://github.com': terminal prompts disabled", 128},
	} {
		known := knownIn(t, run(c.cmd, c.exit, c.out), run("uname -a", 0, "Linux"))
		if len(known) != 1 {
			t.Fatalf("%s: %d known failures, want 1", c.cmd, len(known))
		}
		k := known[0]
		if !strings.HasPrefix(k.Summary, "Refused here (`"+c.head+"`)") || !strings.Contains(k.Solution, "ask the user") || strings.Contains(k.Solution, "checkout") {
			t.Errorf("summary %q, solution %q: want a refusal of the environment, and to ask the user", k.Summary, k.Solution)
		}
		re, err := lessons.CompilePattern(k.Triggers.Errors[0])
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := re.MatchString(c.other); !ok {
			t.Errorf("error trigger %q misses %q", k.Triggers.Errors[0], c.other)
		}
	}
}
