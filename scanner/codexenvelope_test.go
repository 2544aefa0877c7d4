package scanner

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestCodexShellEnvelope: Codex before its unified exec logged a shell
// call's output as a JSON object in a string ({"output": …, "metadata":
// {"exit_code": …}}). The lesson's problem and error trigger are the
// command's output, not the envelope's JSON.
func TestCodexShellEnvelope(t *testing.T) {
	env := func(out string, code int) string {
		o, _ := json.Marshal(out)
		return fmt.Sprintf(`{"output":%s,"metadata":{"exit_code":%d,"duration_seconds":0.0}}`, o, code)
	}
	shell := func(cmd string, code int, out string) cxStep {
		return cxStep{tool: "shell", args: map[string]any{"command": []string{"bash", "-lc", cmd}, "workdir": "/srv/app"}, out: env(out, code)}
	}
	dir := t.TempDir()
	for _, id := range []string{"0199c435-57e2-76c3-a82a-d103098ae1ee", "0199c46b-604e-7aa1-a5a2-e6c751e6d15d"} {
		writeCodex(t, dir, "/srv/app", id, []cxStep{
			shell(`rg -n "step" install.sh`, 127, "bash: line 1: rg: command not found\n"),
			shell(`grep -n "step" install.sh`, 0, "12: step one\n"),
		})
	}
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	var found bool
	for _, c := range candidates(t, state) {
		if strings.Contains(c.Problem+c.Summary, `"metadata"`) {
			t.Errorf("%s: %q reads the envelope's JSON", c.Kind, c.Problem)
		}
		for _, e := range c.Triggers.Errors {
			found = found || strings.Contains(e, "command")
			if strings.Contains(e, `"`) {
				t.Errorf("%s: error trigger %q holds the envelope's quotes", c.Kind, e)
			}
		}
	}
	if !found {
		t.Errorf("no lesson on rg not found: %v", summaries(candidates(t, state)))
	}
}

// TestCodexFailedInSandbox: Codex of 2025 put "failed in sandbox: " before
// the error output of any command that failed under its sandbox, whatever
// the cause. A check's findings so prefixed are the check's: no lesson
// says the sandbox refused it. A failure with no output of its own that
// the same command got past with escalated permissions was the
// sandbox's: its lesson comes before that command (TestSilentSandboxFailure).
func TestCodexFailedInSandbox(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"0199c435-57e2-76c3-a82a-d103098ae1ee", "0199c46b-604e-7aa1-a5a2-e6c751e6d15d"} {
		writeCodex(t, dir, "/srv/app", id, []cxStep{
			{tool: "shell", args: map[string]any{"command": []string{"bash", "-lc", "shellcheck deploy.sh"}}, out: "failed in sandbox: In deploy.sh line 3:\ncd $DIR\n   ^--^ SC2086 (info): Double quote to prevent globbing and word splitting.\n"},
			{tool: "shell", args: map[string]any{"command": []string{"bash", "-lc", "pnpm install"}}, out: "failed in sandbox: "},
			{tool: "shell", args: map[string]any{"command": []string{"bash", "-lc", "pnpm install"}, "with_escalated_permissions": true}, out: `{"output":"Done\n","metadata":{"exit_code":0,"duration_seconds":1.0}}`},
		})
	}
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	for _, c := range candidates(t, state) {
		if strings.Contains(c.Summary+c.Problem, "sandbox") && !strings.HasPrefix(c.Trigger, "pnpm install") {
			t.Errorf("%s %q: the sandbox is blamed for %q", c.Kind, c.Summary, c.Trigger)
		}
	}
}

// TestCodexPowerShellArgv: Codex on Windows runs each command as
// ["pwsh.exe", "-NoLogo", "-Command", line]. The lesson is on the line's
// command (sed, which PowerShell does not have), not on every pwsh call.
func TestCodexPowerShellArgv(t *testing.T) {
	pwsh := func(cmd string, code int, out string) cxStep {
		o, _ := json.Marshal(out)
		return cxStep{tool: "shell", args: map[string]any{"command": []string{"pwsh.exe", "-NoLogo", "-NoProfile", "-Command", cmd}, "workdir": `C:\src\app`},
			out: fmt.Sprintf(`{"output":%s,"metadata":{"exit_code":%d,"duration_seconds":0.1}}`, o, code)}
	}
	notFound := "sed: The term 'sed' is not recognized as a name of a cmdlet, function, script file, or executable program.\n"
	dir := t.TempDir()
	for _, id := range []string{"0199c435-57e2-76c3-a82a-d103098ae1ee", "0199c46b-604e-7aa1-a5a2-e6c751e6d15d"} {
		writeCodex(t, dir, `C:\src\app`, id, []cxStep{
			pwsh("sed -n '1,40p' src/app.ts", 1, notFound),
			pwsh("Get-Content src/app.ts -TotalCount 40", 0, "import x from 'y'\n"),
		})
	}
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	var onSed bool
	for _, c := range candidates(t, state) {
		for _, p := range c.Triggers.Commands {
			if strings.Contains(p, "pwsh") {
				t.Errorf("%s %q: trigger %q is on pwsh", c.Kind, c.Summary, p)
			}
			onSed = onSed || strings.Contains(p, "sed")
		}
		onSed = onSed || strings.Contains(c.Failure, "Bash sed |")
	}
	if !onSed {
		t.Errorf("no lesson on sed: %v", summaries(candidates(t, state)))
	}
}
