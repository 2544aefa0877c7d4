package scanner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestSandboxedErrorAnyCommand: in a Codex session `cargo build` cannot
// write the registry outside the workspace ("Permission denied", a
// wording no error class names a refusal), and the same command with
// sandbox_permissions require_escalated works. The setting names the
// sandbox, so the lesson is the sandbox's: its trigger is the error for
// any shell command (it fires after `cargo test` printing it, not after
// a script without its execute bit), and its summary says the sandbox
// refused. The same with a setting that is not the sandbox's (a longer
// wait) stays with its command.
func TestSandboxedErrorAnyCommand(t *testing.T) {
	fail := "error: failed to open: /home/dev/.cargo/registry/cache/index.crates.io/.package-cache: Permission denied (os error 13)"
	build := map[string]any{"cmd": "cargo build", "workdir": "/repo/shop"}
	escalated := map[string]any{"cmd": "cargo build", "workdir": "/repo/shop", "sandbox_permissions": "require_escalated",
		"justification": "cargo needs its registry cache"}
	dir := t.TempDir()
	writeCodex(t, dir, "/repo/shop", "s1", []cxStep{execCmd(build, 101, fail), execCmd(escalated, 0, "Finished dev profile")})
	cs := errorCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on an error, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if len(c.Triggers.Commands) != 0 || !errorFires(t, c, strings.Replace(fail, "build", "test", 1)) ||
		errorFires(t, c, "bash: ./deploy.sh: Permission denied") {
		t.Errorf("triggers %+v: want the error, for any shell command, and not another permission error", c.Triggers)
	}
	if !strings.HasPrefix(c.Summary, "The agent's sandbox refused") || !strings.Contains(c.Solution, "require_escalated") {
		t.Errorf("summary %q, solution %q: want the sandbox named, and the setting that got past it", c.Summary, c.Solution)
	}

	dir = t.TempDir()
	longer := map[string]any{"cmd": "cargo build", "workdir": "/repo/shop", "yield_time_ms": 60000}
	writeCodex(t, dir, "/repo/shop", "s1", []cxStep{execCmd(build, 101, fail), execCmd(longer, 0, "Finished dev profile")})
	for _, c := range errorCandidates(t, dir) {
		if len(c.Triggers.Commands) == 0 || strings.Contains(c.Summary, "sandbox") {
			t.Errorf("%q %+v: a setting that is not the sandbox's keeps the lesson with its command", c.Summary, c.Triggers)
		}
	}
}

// TestSandboxedErrorCodeMode: the same in Codex's code mode, where the
// setting is a property of the cell's exec_command object, written as
// JSON or as a JavaScript literal, beside a justification that holds
// parentheses and commas. Before, the cell's settings were not read, so
// the escalated retry looked like the same command run again.
func TestSandboxedErrorCodeMode(t *testing.T) {
	fail := "fatal: cannot lock ref 'refs/heads/main': Unable to create '/repo/shop/.git/refs/heads/main.lock': Operation not permitted"
	for _, escalated := range []string{
		`await tools.exec_command({"cmd":"git branch -f main origin/main","workdir":"/repo/shop","login":false,"sandbox_permissions":"require_escalated","justification":"Move main (the local pointer), then retry"}); text(JSON.stringify(r))`,
		"await tools.exec_command({\n  cmd: 'git branch -f main origin/main',\n  workdir: \"/repo/shop\",\n  justification: `Move main (the local pointer), then retry`,\n  with_escalated_permissions: true,\n}); text(JSON.stringify(r))",
	} {
		dir := t.TempDir()
		writeCodex(t, dir, "/repo/shop", "s1", []cxStep{
			cell(`const r = await tools.exec_command({cmd:"git branch -f main origin/main",workdir:"/repo/shop"}); text(JSON.stringify(r))`,
				"Script completed", `{"exit_code":128,"output":"`+fail+`\n"}`),
			cell("const r = "+escalated, "Script completed", `{"exit_code":0,"output":""}`),
		})
		cs := errorCandidates(t, dir)
		if len(cs) != 1 || !strings.Contains(cs[0].Solution, "escalated") || !cs[0].Reminder(lessons.DefaultConfig()) {
			t.Errorf("cell %q: lessons %+v, want one naming the setting that got past it, said after the error", escalated, cs)
		}
	}
}

// TestSilentSandboxFailure: in two Codex sessions the type check fails
// under the sandbox with no output at all ("failed in sandbox: "), and
// the same command with escalated permissions runs and prints the
// project's own type errors (it fails again, but further: another
// class). The sandbox stopped the first run, so there is a lesson,
// though the failure printed nothing: it comes before the command's
// family (there is no error to come after), names the setting, and does
// not fire on another command of the program. Before, a failure with no
// output had no lesson, and a retry that failed was no fix.
func TestSilentSandboxFailure(t *testing.T) {
	dir := t.TempDir()
	tsc := []string{"bash", "-lc", "pnpm exec tsc --noEmit -p apps/server/tsconfig.json"}
	for _, id := range []string{"0199c435-57e2-76c3-a82a-d103098ae1ee", "0199c46b-604e-7aa1-a5a2-e6c751e6d15d"} {
		writeCodex(t, dir, "/srv/app", id, []cxStep{
			{tool: "shell", args: map[string]any{"command": tsc, "workdir": "/srv/app"}, out: "failed in sandbox: "},
			{tool: "shell", args: map[string]any{"command": tsc, "workdir": "/srv/app", "with_escalated_permissions": true,
				"justification": "tsc needs to run outside the sandbox"},
				out: `{"output":"apps/server/src/main.ts(5,10): error TS2305: Module '\"./config\"' has no exported member 'Config'.\n","metadata":{"exit_code":2,"duration_seconds":4.5}}`},
		})
	}
	var found []Candidate
	for _, c := range errorCandidates(t, dir) {
		if strings.Contains(c.Summary, "sandbox") {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		t.Fatalf("lessons blaming the sandbox: %v, want one on the silent type check", summaries(found))
	}
	c := found[0]
	fires := func(cmd string) bool { return commandFires(c.Triggers, cmd) }
	if !fires("pnpm exec tsc -p apps/web/tsconfig.json") || fires("pnpm install") || len(c.Triggers.Errors) != 0 {
		t.Errorf("triggers %+v: want the type check's family, before the call, and not pnpm install", c.Triggers)
	}
	if !strings.Contains(c.Solution, "with_escalated_permissions") || len(c.Sessions) != 2 {
		t.Errorf("solution %q, sessions %v: want the setting, from both sessions", c.Solution, c.Sessions)
	}
}

// TestSilentSandboxFailureGotPastLate: the type check fails silently
// under the sandbox early in a session; fifty calls of other work later
// the agent runs it, with another option, with escalated permissions, and
// it runs. The sandbox holds for the whole session and for the program,
// so that late run got past the early failure all the same. Before, a
// failure was got past only within the 40 calls after it, and only by
// the same command.
func TestSilentSandboxFailureGotPastLate(t *testing.T) {
	tsc := []string{"bash", "-lc", "pnpm exec tsc --noEmit -p apps/server/tsconfig.json"}
	steps := []cxStep{{tool: "shell", args: map[string]any{"command": tsc, "workdir": "/srv/app"}, out: "failed in sandbox: "}}
	for i := range 50 {
		steps = append(steps, cxStep{tool: "shell", args: map[string]any{"command": []string{"bash", "-lc", fmt.Sprintf("sed -n '%d,+20p' src/main.ts", i*20)}, "workdir": "/srv/app"},
			out: `{"output":"export {}\n","metadata":{"exit_code":0,"duration_seconds":0.0}}`})
	}
	other := []string{"bash", "-lc", "pnpm exec tsc --noEmit --pretty false -p apps/server/tsconfig.json"}
	steps = append(steps, cxStep{tool: "shell", args: map[string]any{"command": other, "workdir": "/srv/app", "with_escalated_permissions": true},
		out: `{"output":"src/main.ts(5,10): error TS2305: Module '\"./config\"' has no exported member 'Config'.\n","metadata":{"exit_code":2,"duration_seconds":4.5}}`})
	dir := t.TempDir()
	writeCodex(t, dir, "/srv/app", "0199c435-57e2-76c3-a82a-d103098ae1ee", steps)
	for _, c := range errorCandidates(t, dir) {
		if strings.Contains(c.Summary, "sandbox stops `pnpm exec tsc`") {
			return
		}
	}
	t.Errorf("no sandbox lesson on the silent type check: %q", summaries(errorCandidates(t, dir)))
}
