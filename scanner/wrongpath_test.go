package scanner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// wrongPaths are the wrong-path candidates a scan of dir proposes.
func wrongPaths(t *testing.T, dir string) []Candidate {
	t.Helper()
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	var out []Candidate
	for _, c := range candidates(t, state) {
		if c.Kind == "wrongpath" { // a literal: the test reads the same on code without the kind
			out = append(out, c)
		}
	}
	return out
}

// fires reports whether c's lesson would answer call, before it runs.
func fires(t *testing.T, c Candidate, call lessons.ToolCall) bool {
	t.Helper()
	l := ToLesson(c)
	if len(l.Triggers.Errors) > 0 {
		t.Fatalf("triggers %+v: a wrong path's lesson comes before the call, not with its error", l.Triggers)
	}
	return firesOn(l, []lessons.ToolCall{call})
}

// TestWrongPathFoundElsewhere: a script run where it is not, then run
// from where it is, teaches "it is there", live from one session, on the
// wrong path itself: it fires before the next run of that path, however
// written, and never on the right one.
func TestWrongPathFoundElsewhere(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/dev/shop", "s1", []step{
		run("scripts/publish-preview.sh --env dev", 127, "bash: scripts/publish-preview.sh: No such file or directory"),
		run("tools/release/scripts/publish-preview.sh --env dev", 0, "published"),
	})
	cs := wrongPaths(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d wrong-path candidates, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if c.Confidence < lessons.DefaultConfig().MinConfidence {
		t.Errorf("confidence %.2f: a wrong path with where it was found is a fix, want at least minConfidence", c.Confidence)
	}
	if !strings.Contains(c.Summary, "tools/release/scripts/publish-preview.sh") || !strings.Contains(c.Summary, "`scripts/publish-preview.sh`") {
		t.Errorf("summary %q: want the wrong path and where it is", c.Summary)
	}
	for cmd, want := range map[string]bool{
		"scripts/publish-preview.sh --env prod":                       true,
		"./scripts/publish-preview.sh":                                true,
		"bash scripts/publish-preview.sh":                             true,
		"/home/dev/shop/scripts/publish-preview.sh":                   true,
		"tools/release/scripts/publish-preview.sh --env prod":         false,
		"/home/dev/shop/tools/release/scripts/publish-preview.sh":     false,
		"cat docs/scripts/publish-preview.sh.md":                      false,
		"go test ./...":                                               false,
		"ls tools/release/scripts/ && tools/release/scripts/build.sh": false,
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Bash", Command: cmd}); got != want {
			t.Errorf("fires before %q = %v, want %v", cmd, got, want)
		}
	}
	l := ToLesson(c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("lesson does not validate: %v", ps)
	}
}

// TestWrongPathCodex: the same from a Codex rollout, whose shell runs in
// the call's workdir and whose zsh says "no such file or directory: X".
func TestWrongPathCodex(t *testing.T) {
	dir := t.TempDir()
	writeCodex(t, dir, "/repo/api", "c1", []cxStep{
		execCmd(map[string]any{"cmd": "scripts/dispatch-job.sh --queue low", "workdir": "/repo/api"}, 127,
			"zsh:1: no such file or directory: scripts/dispatch-job.sh"),
		execCmd(map[string]any{"cmd": "ls /opt/agent-skills/jobs/scripts", "workdir": "/repo/api"}, 0, "dispatch-job.sh\n"),
		execCmd(map[string]any{"cmd": "/opt/agent-skills/jobs/scripts/dispatch-job.sh --queue low", "workdir": "/repo/api"}, 0, "queued"),
	})
	cs := wrongPaths(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d wrong-path candidates, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if c.Confidence < lessons.DefaultConfig().MinConfidence || !strings.Contains(c.Solution, "/opt/agent-skills/jobs/scripts/dispatch-job.sh") {
		t.Errorf("confidence %.2f, solution %q: want a live lesson naming where the script is", c.Confidence, c.Solution)
	}
	if !fires(t, c, lessons.ToolCall{Tool: "Bash", Command: "scripts/dispatch-job.sh --queue high"}) ||
		fires(t, c, lessons.ToolCall{Tool: "Bash", Command: "/opt/agent-skills/jobs/scripts/dispatch-job.sh --queue high"}) {
		t.Errorf("triggers %+v: want a fire on the wrong path only", c.Triggers)
	}
}

// TestWrongPathOfAFileTool: a file read where it is not, then read where
// it is: the lesson is on the file tools' path, in any checkout of the
// project named the same, and not where the file is.
func TestWrongPathOfAFileTool(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/dev/shop", "s1", []step{
		call("Read", map[string]any{"file_path": "/home/dev/shop/src/lib/parse_args.py"}, true,
			"File does not exist. Note: your current working directory is /home/dev/shop."),
		call("Read", map[string]any{"file_path": "/home/dev/shop/tools/cli/parse_args.py"}, false, "import sys"),
	})
	cs := wrongPaths(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d wrong-path candidates, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	for p, want := range map[string]bool{
		"/home/dev/shop/src/lib/parse_args.py":       true,
		"/srv/ci/shop/src/lib/parse_args.py":         true,
		"/home/dev/shop/tools/cli/parse_args.py":     false,
		"/home/dev/shop/src/lib/other/parse_args.py": false,
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Read", Path: p}); got != want {
			t.Errorf("fires before Read %q = %v, want %v", p, got, want)
		}
	}
	if fires(t, c, lessons.ToolCall{Tool: "Write", Path: "/home/dev/shop/src/lib/parse_args.py"}) {
		t.Error("fires before a Write: creating the file is no wrong path")
	}
}

// TestWrongPathMissingInTwoSessions: a path missing in one session, with
// nothing of its name found instead, is no lesson yet; missing in a
// second session it is, before the call, saying so; one lesson, not a
// known failure beside it.
func TestWrongPathMissingInTwoSessions(t *testing.T) {
	dir := t.TempDir()
	missingRead := call("Read", map[string]any{"file_path": "/home/dev/shop/docs/ROADMAP.md"}, true,
		"File does not exist. Note: your current working directory is /home/dev/shop.")
	writeClaude(t, dir, "/home/dev/shop", "s1", []step{missingRead, run("go build ./...", 0, "")})
	cs := wrongPaths(t, dir)
	if len(cs) != 1 || cs[0].Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Fatalf("after one session: %+v; want one candidate below minConfidence", cs)
	}
	writeClaude(t, dir, "/home/dev/shop", "s2", []step{run("go vet ./...", 0, ""), missingRead})
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	all := candidates(t, state)
	if len(all) != 1 || all[0].Kind != "wrongpath" {
		t.Fatalf("candidates %+v: want one, a wrong path", all)
	}
	c := all[0]
	if c.Confidence < lessons.DefaultConfig().MinConfidence || !strings.Contains(c.Solution, "2 sessions") {
		t.Errorf("confidence %.2f, solution %q: want minConfidence and the count of sessions", c.Confidence, c.Solution)
	}
	if !fires(t, c, lessons.ToolCall{Tool: "Read", Path: "/home/dev/shop/docs/ROADMAP.md"}) {
		t.Errorf("triggers %+v: want a fire before the read", c.Triggers)
	}
}

// TestNoWrongPath: what is no wrong path: a file created after it was
// missing, the relative form of a path that worked from the project's
// folder, a shell that had left that folder, a variable, a glob, a bare
// name, a temporary file, a tool's own binary missing.
func TestNoWrongPath(t *testing.T) {
	cases := map[string][]step{
		"created after": {
			call("Read", map[string]any{"file_path": "/home/dev/shop/docs/plan-notes.md"}, true, "File does not exist."),
			write("/home/dev/shop/docs/plan-notes.md", "# plan"),
			call("Read", map[string]any{"file_path": "/home/dev/shop/archive/plan-notes.md"}, false, "old"),
		},
		"one path, two forms": {
			run("cd web && cat src/config/site-settings.json", 1, "cat: src/config/site-settings.json: No such file or directory"),
			run("cat /home/dev/shop/src/config/site-settings.json", 0, "{}"),
		},
		"shell elsewhere": {
			run("cd web", 0, ""),
			run("python tools/gen_report.py", 2, "python: can't open file '/home/dev/shop/web/tools/gen_report.py': [Errno 2] No such file or directory"),
			run("python ../scripts/tools/gen_report.py", 0, ""),
		},
		"shell moved by a chain": {
			run("cd web && npm install", 0, ""),
			run("cat src/app-config.json", 1, "cat: src/app-config.json: No such file or directory"),
			run("cat /home/dev/shop/config/src/app-config.json", 0, "{}"),
		},
		"a variable": {
			run("bash $ROOT/scripts/sync-assets.sh", 127, "bash: /scripts/sync-assets.sh: No such file or directory"),
			run("bash ops/scripts/sync-assets.sh", 0, ""),
		},
		"a glob": {
			run("grep -n token src/*/handlers.go", 2, "grep: src/*/handlers.go: No such file or directory"),
			run("grep -n token internal/api/handlers.go", 0, "12: token"),
		},
		"a bare name": {
			run("cat settings-local.json", 1, "cat: settings-local.json: No such file or directory"),
			run("cat config/settings-local.json", 0, "{}"),
		},
		"a temporary file": {
			run("cat /tmp/build-output/report-final.txt", 1, "cat: /tmp/build-output/report-final.txt: No such file or directory"),
			run("cat /tmp/ci/report-final.txt", 0, "ok"),
		},
		"the tool's binary": {
			call("Grep", map[string]any{"pattern": "x", "path": "/home/dev/shop/src/handlers"}, true,
				"ENOENT: no such file or directory, posix_spawn '/opt/agent/versions/2.1/agent'"),
			call("Grep", map[string]any{"pattern": "x", "path": "/home/dev/shop/internal/handlers"}, false, "a.go"),
		},
	}
	for name, steps := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeClaude(t, dir, "/home/dev/shop", "s1", steps)
			if cs := wrongPaths(t, dir); len(cs) > 0 {
				t.Errorf("wrong-path candidates %+v, want none", cs)
			}
		})
	}
}

// TestWrongPathThatWorkedElsewhere: a path that worked in one session
// and was missing in two others (moved, or not made yet) is no lesson
// that it does not exist: it would speak before the calls that work. So
// is one whose trigger would fire on a path that worked (the same path
// under another folder of the project).
func TestWrongPathThatWorkedElsewhere(t *testing.T) {
	for name, worked := range map[string]string{
		"the same path":           "/home/dev/shop/docs/ROADMAP.md",
		"a path that ends so":     "/home/dev/shop/site/docs/ROADMAP.md",
		"in a session after them": "/home/dev/shop/docs/ROADMAP.md",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := map[string]any{"file_path": "/home/dev/shop/docs/ROADMAP.md"}
			ids := []string{"s1", "s2", "s3"}
			writeClaude(t, dir, "/home/dev/shop", ids[0], []step{call("Read", map[string]any{"file_path": worked}, false, "# Roadmap")})
			for _, id := range ids[1:] {
				writeClaude(t, dir, "/home/dev/shop", id, []step{call("Read", p, true, "File does not exist.")})
			}
			for _, c := range wrongPaths(t, dir) {
				if c.Confidence >= lessons.DefaultConfig().MinConfidence {
					t.Errorf("%q at %.2f: a path that worked in a session is no wrong path", c.Summary, c.Confidence)
				}
			}
		})
	}
}

// TestWrongPathHedgedCommand: a command that works whether or not its
// path exists (a test with a fallback) neither says the path exists nor
// where it is: the lesson learned where the script really is stands.
func TestWrongPathHedgedCommand(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/dev/shop", "s1", []step{
		run("scripts/publish-preview.sh --env dev", 127, "bash: scripts/publish-preview.sh: No such file or directory"),
		run("test -x ops/scripts/publish-preview.sh && echo yes || echo no", 0, "no"),
		run("tools/release/scripts/publish-preview.sh --env dev", 0, "published"),
	})
	writeClaude(t, dir, "/home/dev/shop", "s2", []step{
		run("test -x scripts/publish-preview.sh && echo present || echo missing", 0, "missing"),
	})
	cs := wrongPaths(t, dir)
	if len(cs) != 1 || cs[0].Confidence < lessons.DefaultConfig().MinConfidence || !strings.Contains(cs[0].Summary, "tools/release/") {
		t.Errorf("%+v: want one live lesson naming tools/release/scripts/publish-preview.sh", cs)
	}
}

// TestWrongPathGemini: a Gemini CLI read_file at a path where the file
// is not ("File not found"), then at the path where it is: the lesson
// is on the file tools' path, as from Claude Code.
func TestWrongPathGemini(t *testing.T) {
	dir := t.TempDir()
	call := func(id, m, p, out string, failed bool) string {
		status, res := "success", `"result":[{"functionResponse":{"id":"`+id+`","name":"read_file","response":{"output":"`+out+`"}}}]`
		if failed {
			status, res = "error", `"error":"`+out+`"`
		}
		return `{"id":"` + m + `","timestamp":"2025-01-01T00:00:0` + m[1:] + `Z","type":"gemini","content":"","toolCalls":[{"id":"` + id +
			`","name":"read_file","args":{"absolute_path":"` + p + `"},` + res + `,"status":"` + status + `"}]}`
	}
	log := strings.Join([]string{
		`{"sessionId":"gm-1","projectHash":"abc","startTime":"2025-01-01T00:00:00Z","lastUpdated":"2025-01-01T00:00:00Z","kind":"main"}`,
		`{"id":"m1","timestamp":"2025-01-01T00:00:01Z","type":"user","content":[{"text":"fix the parser"}]}`,
		call("tc1", "m2", "/work/shop/src/lib/parse_args.py", "File not found: /work/shop/src/lib/parse_args.py", true),
		call("tc2", "m3", "/work/shop/tools/cli/parse_args.py", "import sys", false),
	}, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "chat.jsonl"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := wrongPaths(t, dir)
	if len(cs) != 1 || cs[0].Confidence < lessons.DefaultConfig().MinConfidence {
		t.Fatalf("%+v: want one live wrong-path lesson", cs)
	}
	if !fires(t, cs[0], lessons.ToolCall{Tool: "Read", Path: "/work/shop/src/lib/parse_args.py"}) ||
		fires(t, cs[0], lessons.ToolCall{Tool: "Read", Path: "/work/shop/tools/cli/parse_args.py"}) {
		t.Errorf("triggers %+v: want a fire on the wrong path only", cs[0].Triggers)
	}
}

// TestWrongPathWindows: a script guessed under the project on Windows,
// where the shell prints the path with backslashes: the lesson fires on
// the path written either way, not where the script is.
func TestWrongPathWindows(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, `C:\Users\dev\shop`, "s1", []step{
		run(`pwsh scripts\publish-preview.ps1`, 1, `The argument 'scripts\publish-preview.ps1' is not recognized as the name of a script file. Check the spelling of the name, or if a path was included, verify that the path is correct: No such file or directory`),
		run(`pwsh tools\release\scripts\publish-preview.ps1`, 0, "published"),
	})
	cs := wrongPaths(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d wrong-path candidates, want 1: %+v", len(cs), cs)
	}
	for cmd, want := range map[string]bool{
		`pwsh scripts\publish-preview.ps1 -Env prod`:               true,
		`pwsh scripts/publish-preview.ps1`:                         true,
		`pwsh C:\Users\dev\shop\scripts\publish-preview.ps1`:       true,
		`pwsh tools\release\scripts\publish-preview.ps1 -Env prod`: false,
	} {
		if got := fires(t, cs[0], lessons.ToolCall{Tool: "Bash", Command: cmd}); got != want {
			t.Errorf("fires before %q = %v, want %v", cmd, got, want)
		}
	}
}
