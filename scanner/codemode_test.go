package scanner

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// cell is a Codex code-mode exec call: a JavaScript cell and what it
// printed, under the status line Codex puts first.
func cell(js, status string, printed ...string) cxStep {
	return cxStep{tool: "exec", input: js, custom: true,
		parts: append([]string{status + "\nWall time 0.2 seconds\nOutput:\n"}, printed...)}
}

// TestCodeModeCells: Codex's code mode runs shell commands and patches
// from JavaScript cells of one exec tool. A cell that runs one command is
// that shell call, with its outcome read from what the cell printed: the
// exit code when it printed the result, else a line the shell printed;
// a cell that applies a patch is that edit; any other cell stays an exec
// call. Before, every cell was an exec call with no command and no
// output, and nothing was learned from code-mode sessions.
func TestCodeModeCells(t *testing.T) {
	dir := t.TempDir()
	writeCodex(t, dir, "/repo/gen", "s1", []cxStep{
		cell(`const r = await tools.exec_command({cmd:"python scripts/gen.py --out \"build/a b\"",workdir:"/repo/gen",yield_time_ms:10000}); text(r.output)`,
			"Script completed", "zsh:1: command not found: python\n"),
		cell("const r = await tools.exec_command({\n  cmd: 'python3 scripts/gen.py --out \"build/a b\"',\n  workdir: \"/repo/gen\",\n});\ntext(JSON.stringify(r));",
			"Script completed", `{"chunk_id":"a1","wall_time_seconds":0.2,"exit_code":0,"output":"wrote build/a b\n"}`),
		cell(`const r = await tools.exec_command({cmd:"cargo test --lib",workdir:"/repo/gen"}); text(JSON.stringify(r))`,
			"Script completed", `{"chunk_id":"a2","wall_time_seconds":3.1,"exit_code":101,"output":"error: no library targets found in package `+"`gen`"+`\n"}`),
		cell("const patch = \"*** Begin Patch\\n*** Update File: /repo/gen/src/main.rs\\n@@\\n-let x = 1;\\n+let x = 2;\\n*** End Patch\";\nawait tools.apply_patch(patch);",
			"Script failed", "Script error:\napply_patch verification failed: Failed to find expected lines in /repo/gen/src/main.rs:\nlet x = 1;"),
		cell("const rs = await Promise.all([`a`, `b`].map(f => tools.exec_command({cmd: `ls ${f}`})));\ntext(rs.length)", "Script completed", "2"),
		cell("text(ALL_TOOLS.length)", "Script running with cell ID 7"),
	})
	got := loggedCalls(t, dir, func(c LoggedCall) string {
		return c.Tool + " " + c.Command + c.Path + " " + c.Outcome.String()
	})
	want := []string{
		`Bash python scripts/gen.py --out "build/a b" failed`,
		`Bash python3 scripts/gen.py --out "build/a b" fine`,
		`Bash cargo test --lib failed`,
		`Edit /repo/gen/src/main.rs failed`,
		`exec  fine`,
		`exec  unknown`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	if !slices.ContainsFunc(candidates(t, state), func(c Candidate) bool { return strings.Contains(c.Summary, "python3") }) {
		t.Errorf("no lesson from the code-mode retry python → python3: %q", summaries(candidates(t, state)))
	}
}

// FuzzCodeMode: any cell and any output read without a panic, and a
// command read from a cell is text the cell holds, unescaped.
func FuzzCodeMode(f *testing.F) {
	f.Add(`const r = await tools.exec_command({cmd:"ls \"a b\"",workdir:"/p"}); text(r.output)`, "Script completed\nWall time 0.1 seconds\nOutput:\n\n{\"exit_code\":2,\"output\":\"x\"}")
	f.Add("tools.exec_command({cmd: `a ${b}`})", "Script failed\nWall time 0 seconds\nOutput:\n\nScript error:\nboom")
	f.Add(`tools.exec_command({"cmd":'x\'y'`, "Script running with cell ID 3")
	f.Add(`const patch = "*** Begin Patch\n*** Add File: a\n+x"; tools.apply_patch(patch)`, "Script ")
	f.Fuzz(func(t *testing.T, js, out string) {
		src, _ := json.Marshal(js)
		c := codeModeCall(src)
		if c.Tool == "Bash" && (c.Command == "" || len(c.Command) > len(js)) {
			t.Errorf("command %q from cell %q", c.Command, js)
		}
		codeModeResult(out) // must not panic
	})
}

// TestCodeModePolls: a code-mode cell that leaves a command running
// prints its session and no exit code; a later cell polls it with
// tools.write_stdin. The exit status the poll prints is the command's,
// and the poll itself does not fail, nor does a poll of a command the log
// did not start. Before, the poll cell was an exec call that failed with
// the command's error, and two sessions of it made a known failure of
// "exec".
func TestCodeModePolls(t *testing.T) {
	dir := t.TempDir()
	eperm := "Error: listen EPERM: operation not permitted 127.0.0.1"
	writeCodex(t, dir, "/repo/bot", "s1", []cxStep{
		cell(`const r = await tools.exec_command({cmd:"npx vitest run",workdir:"/repo/bot",yield_time_ms:1000}); text(JSON.stringify(r))`,
			"Script completed", `{"chunk_id":"c1","wall_time_seconds":1.0,"session_id":51819,"output":"RUN v4.1.9\n"}`),
		cell(`const r = await tools.write_stdin({session_id:51819,chars:"",yield_time_ms:1000}); text(JSON.stringify(r))`,
			"Script completed", `{"chunk_id":"c2","wall_time_seconds":0.0,"exit_code":1,"output":"`+eperm+`\n"}`),
		cell(`const r = await tools.write_stdin({session_id:"777",chars:"",yield_time_ms:1000}); text(JSON.stringify(r))`,
			"Script completed", `{"chunk_id":"c3","wall_time_seconds":0.0,"exit_code":1,"output":"`+eperm+`\n"}`),
	})
	got := loggedCalls(t, dir, func(c LoggedCall) string {
		return c.Tool + " " + c.Command + " " + c.Outcome.String()
	})
	want := []string{"Bash npx vitest run failed", "write_stdin  fine", "write_stdin  fine"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCodeModeShellCommand: where Codex's shell tool is shell_command, a
// cell calls tools.shell_command({command: …}) and prints its result as
// text: "Exit code: N", "Wall time: …", "Output:" and the output. A cell
// that runs one is that command, failed or fine by its exit code, thrown
// ("Script failed") or printed ("Script completed").
func TestCodeModeShellCommand(t *testing.T) {
	dir := t.TempDir()
	writeCodex(t, dir, `D:\app`, "s1", []cxStep{
		cell(`const r = await tools.shell_command({command:"git status --short","workdir":"D:\\app"});`+"\ntext(r);",
			"Script completed", "Exit code: 128\nWall time: 0.1 seconds\nOutput:\nfatal: not a git repository (or any of the parent directories): .git\n"),
		cell(`const r = await tools.shell_command({command:"Get-Content -Raw README.md","workdir":"D:\\app"});`+"\ntext(r);",
			"Script completed", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n# app\n"),
		cell(`const r = await tools.shell_command({command:"python -c \"print(1)\"","workdir":"D:\\app"});`+"\ntext(r);",
			"Script failed", "Script error:\nExit code: 1\nWall time: 0.2 seconds\nOutput:\n"),
	})
	got := loggedCalls(t, dir, func(c LoggedCall) string {
		return c.Tool + " " + c.Command + " " + c.Outcome.String()
	})
	want := []string{
		`Bash git status --short failed`,
		`Bash Get-Content -Raw README.md fine`,
		`Bash python -c "print(1)" failed`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCodeModeSeveralCommands: a cell that runs several shell commands at
// once (Promise.all) fails with the first that failed; read as the lines
// of one script, the failure is learned under the command its error
// names, as a failed chain's is. A cell whose commands are not all
// written out stays an exec call.
func TestCodeModeSeveralCommands(t *testing.T) {
	dir := t.TempDir()
	batch := "const r = await Promise.all([\n  tools.shell_command({command:\"git status --short\",\"workdir\":\"D:\\\\app\"}),\n" +
		"  tools.shell_command({command:\"Get-ChildItem -Force\",\"workdir\":\"D:\\\\app\"})\n]);\ntext(r.join('\\n'));"
	writeCodex(t, dir, `D:\app`, "s1", []cxStep{
		cell(batch, "Script failed", "Script error:\nExit code: 128\nWall time: 0.1 seconds\nOutput:\nfatal: not a git repository (or any of the parent directories): .git\n"),
		cell(batch, "Script completed", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n## main\n"),
		cell("const r = await Promise.all(cmds.map(c => tools.shell_command({command: c})));\ntext(r.length)", "Script completed", "2"),
	})
	got := loggedCalls(t, dir, func(c LoggedCall) string {
		fam := ""
		if c.Outcome == OutcomeFailed {
			fam = lessons.FailedFamily(c.Command, c.Error).String()
		}
		return c.Tool + " " + strings.ReplaceAll(c.Command, "\n", "; ") + " " + c.Outcome.String() + " " + fam
	})
	want := []string{
		"Bash git status --short; Get-ChildItem -Force failed git status",
		"Bash git status --short; Get-ChildItem -Force fine ",
		"exec  fine ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// loggedCalls reads the sessions under dir and returns show of each call.
func loggedCalls(t *testing.T, dir string, show func(c LoggedCall) string) []string {
	t.Helper()
	var got []string
	_, err := ReadSessions(context.Background(), ReadOptions{Paths: []string{dir}, Workers: 1},
		func(s *LoggedSession) []LoggedCall { return s.Calls },
		func(calls []LoggedCall) error {
			for _, c := range calls {
				got = append(got, show(c))
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return got
}
