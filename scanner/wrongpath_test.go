package scanner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// pathCandidates scans dir and returns its lessons on a wrong path.
func pathCandidates(t *testing.T, dir string) []Candidate {
	t.Helper()
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	return ofKind(candidates(t, state), KindPath)
}

// fires reports whether lesson c comes before call, as the hook matches it.
func fires(t *testing.T, c Candidate, call lessons.ToolCall) bool {
	t.Helper()
	l := ToLesson(c)
	ok, err := engine.MatchLesson(&l, call)
	if err != nil {
		t.Fatalf("matching %+v: %v", call, err)
	}
	return ok
}

// TestWrongPathOfAScript: a script run where it is not (zsh's "no such
// file or directory"), then run from where it lives. Seen in one session,
// it is a reminder said after the same path fails; seen in a second that
// found it at the same place, a lesson proposed that comes before the
// wrong path is run again, with the right path in its text, and never
// before the right path, nor before another script of the same name
// under a longer path.
func TestWrongPathOfAScript(t *testing.T) {
	cfg := lessons.DefaultConfig()
	dir := t.TempDir()
	session := func(id string) {
		writeClaude(t, dir, "/work/shop", id, []step{
			run("tools/release/publish.sh --dry", 127, "zsh:1: no such file or directory: tools/release/publish.sh"),
			run("find . -name publish.sh", 0, "./deploy/tools/release/publish.sh"),
			run("deploy/tools/release/publish.sh --dry", 0, "published nothing (dry run)"),
		})
	}
	session("s1")
	cs := pathCandidates(t, dir)
	if len(cs) != 1 || cs[0].Confidence >= cfg.MinConfidence || !cs[0].Reminder(cfg) ||
		!errorFires(t, cs[0], "zsh:1: no such file or directory: tools/release/publish.sh") {
		t.Fatalf("one session: %+v; want one reminder, said after the path failed", cs)
	}
	session("s2")
	cs = pathCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on a wrong path, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if c.Confidence < cfg.MinConfidence {
		t.Errorf("confidence %.2f: the right path found again in a second session is a lesson", c.Confidence)
	}
	if len(c.Triggers.Errors) > 0 {
		t.Errorf("error triggers %q: a wrong path's lesson comes before the call", c.Triggers.Errors)
	}
	if !strings.Contains(c.Summary+c.Solution, "deploy/tools/release/publish.sh") {
		t.Errorf("summary %q, solution %q: want the right path", c.Summary, c.Solution)
	}
	for cmd, want := range map[string]bool{
		"tools/release/publish.sh":                    true,
		"bash ./tools/release/publish.sh --tag v2":    true,
		"/work/shop/tools/release/publish.sh":         true,
		"deploy/tools/release/publish.sh --dry":       false,
		"/opt/ci/deploy/tools/release/publish.sh":     false,
		"cat tools/release/publish.sh.bak":            false,
		"git log --oneline -3":                        false,
		"ls deploy/tools/release/ && echo publish.sh": false,
		"ls tools/release/publish.sh 2>/dev/null":     false,
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Bash", Command: cmd}); got != want {
			t.Errorf("fires before %q = %v, want %v", cmd, got, want)
		}
	}
	if ps := lessons.Errors(lessons.Validate(ptr(ToLesson(c)))); len(ps) > 0 {
		t.Errorf("the lesson does not validate: %v", ps)
	}
}

// TestWrongPathFoundElsewhereWaits: a file of one name read where it is
// not in two sessions, a file of that name found at one place in the
// first and at another in the second: neither session's find is the
// project's, and the lesson stays a reminder.
func TestWrongPathFoundElsewhereWaits(t *testing.T) {
	dir := t.TempDir()
	for id, found := range map[string]string{"s1": "/work/shop/app/routes/index.ts", "s2": "/work/shop/web/routes/index.ts"} {
		writeClaude(t, dir, "/work/shop", id, []step{
			call("Read", map[string]any{"file_path": "/work/shop/src/routes/index.ts"}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": found}, false, "export {}"),
		})
	}
	cs := pathCandidates(t, dir)
	if len(cs) != 1 || len(cs[0].Sessions) != 2 || cs[0].Confidence >= lessons.DefaultConfig().MinConfidence || !cs[0].Reminder(lessons.DefaultConfig()) {
		t.Errorf("%+v: want one reminder of the two sessions, not proposed", cs)
	}
}

func ptr[T any](v T) *T { return &v }

// TestWrongPathSummaryOfLongPaths: paths too long for a summary leave
// out the folders they end in alike, not where the file is: the summary
// still names the folders that differ.
func TestWrongPathSummaryOfLongPaths(t *testing.T) {
	const root = "/home/dev/projects/acme-platform-monorepo"
	const tail = "/src/features/billing/components/invoices/InvoiceTable.tsx"
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, root, id, []step{
			call("Read", map[string]any{"file_path": root + "/apps/web" + tail}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": root + "/packages/ui" + tail}, false, "export {}"),
		})
	}
	cs := pathCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on a wrong path, want 1: %+v", len(cs), cs)
	}
	sum := cs[0].Summary
	if len(sum) > maxSummary || !strings.Contains(sum, "packages/ui/…/InvoiceTable.tsx`") || !strings.Contains(sum, "apps/web/…/InvoiceTable.tsx`") {
		t.Errorf("summary %q: want both places, the folders they differ in kept", sum)
	}
}

// TestWrongPathInCodex: in a Codex rollout, a script run where it is not
// (Python resolves it to an absolute path in its error), then run from
// where it lives, and a file of the project read where it is not and
// found elsewhere in it: two reminders from one session, said after the
// same path fails, in any program's words, not before the call.
func TestWrongPathInCodex(t *testing.T) {
	dir := t.TempDir()
	writeCodex(t, dir, "/src/api", "c1", []cxStep{
		execCmd(map[string]any{"cmd": "python3 tools/gen_client.py --out client", "workdir": "/src/api"}, 2,
			"python3: can't open file '/src/api/tools/gen_client.py': [Errno 2] No such file or directory"),
		execCmd(map[string]any{"cmd": "python3 scripts/codegen/gen_client.py --out client", "workdir": "/src/api"}, 0, "wrote client/"),
		execCmd(map[string]any{"cmd": "sed -n 1,80p internal/store/schema.sql", "workdir": "/src/api"}, 2,
			"sed: can't read internal/store/schema.sql: No such file or directory"),
		execCmd(map[string]any{"cmd": "rg --files | rg schema.sql", "workdir": "/src/api"}, 0, "db/migrations/schema.sql"),
		execCmd(map[string]any{"cmd": "sed -n 1,80p db/migrations/schema.sql", "workdir": "/src/api"}, 0, "CREATE TABLE orders (id int);"),
	})
	cs := pathCandidates(t, dir)
	if len(cs) != 2 {
		t.Fatalf("%d lessons on a wrong path, want 2: %+v", len(cs), cs)
	}
	min := lessons.DefaultConfig().MinConfidence
	for _, c := range cs {
		switch c.Fixed {
		case "scripts/codegen/gen_client.py":
			missing := "python3: can't open file '/src/api/tools/gen_client.py': [Errno 2] No such file or directory"
			if c.Confidence >= min || !c.Reminder(lessons.DefaultConfig()) {
				t.Errorf("confidence %.2f: a script run from the wrong place in one session is a reminder", c.Confidence)
			}
			if !fires(t, c, lessons.ToolCall{Tool: "Bash", Command: "python3 tools/gen_client.py", Error: missing}) ||
				fires(t, c, lessons.ToolCall{Tool: "Bash", Command: "python3 scripts/codegen/gen_client.py", Error: missing}) {
				t.Errorf("triggers %q: want the wrong path only", c.Triggers.Commands)
			}
		case "db/migrations/schema.sql":
			if c.Confidence >= min {
				t.Errorf("confidence %.2f: a file of the project found elsewhere in it may move again; want a second session", c.Confidence)
			}
			// one session: a reminder after the same path fails again,
			// in any program's words, not before the call
			missing := "head: cannot open 'internal/store/schema.sql' for reading: No such file or directory"
			if !fires(t, c, lessons.ToolCall{Tool: "Bash", Command: "head -20 internal/store/schema.sql", Error: missing}) ||
				fires(t, c, lessons.ToolCall{Tool: "Bash", Command: "head -20 internal/store/schema.sql"}) ||
				fires(t, c, lessons.ToolCall{Tool: "Bash", Command: "head -20 db/other.sql", Error: missing}) {
				t.Errorf("triggers %q, %q: want the wrong path, after it failed", c.Triggers.Commands, c.Triggers.Errors)
			}
			if !c.Reminder(lessons.DefaultConfig()) {
				t.Errorf("not a reminder: want it said after the same failure from its first session")
			}
		default:
			t.Errorf("right path %q: want one of the paths that worked", c.Fixed)
		}
	}
}

// TestWrongPathOfAFileTool: Read of a file that is not there, then of the
// same name elsewhere in the project: below minConfidence until a second
// session (the code moves with the work), then a path trigger for the
// file tools on the wrong path, whatever checkout of the project it is
// read in, and not on the right one.
func TestWrongPathOfAFileTool(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		call("Read", map[string]any{"file_path": "/home/ann/app/src/config/settings.ts"}, true,
			"<tool_use_error>File does not exist. Note: your current working directory is /home/ann/app.</tool_use_error>"),
		call("Glob", map[string]any{"pattern": "**/settings.ts"}, false, "/home/ann/app/packages/core/src/config/settings.ts"),
		call("Read", map[string]any{"file_path": "/home/ann/app/packages/core/src/config/settings.ts"}, false, "export const x = 1"),
	})
	cs := pathCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on a wrong path, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if c.Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Errorf("confidence %.2f: a file of the project that moved within it may move again; want a second session first", c.Confidence)
	}
	// till then, a reminder after the same path failed, not before it
	wrong := "/home/ann/app/src/config/settings.ts"
	if !c.Reminder(lessons.DefaultConfig()) || fires(t, c, lessons.ToolCall{Tool: "Read", Path: wrong}) ||
		!fires(t, c, lessons.ToolCall{Tool: "Read", Path: wrong, Error: "File does not exist."}) {
		t.Errorf("reminder %v, triggers %+v: want it after Read of the wrong path failed only", c.Reminder(lessons.DefaultConfig()), c.Triggers)
	}
	writeClaude(t, dir, "/home/ann/app", "s2", []step{
		call("Read", map[string]any{"file_path": "/home/ann/app/src/config/settings.ts"}, true, "File does not exist."),
		call("Read", map[string]any{"file_path": "/home/ann/app/packages/core/src/config/settings.ts"}, false, "export const x = 1"),
	})
	if cs = pathCandidates(t, dir); len(cs) != 1 || cs[0].Confidence < lessons.DefaultConfig().MinConfidence {
		t.Fatalf("after a second session: %+v; want one lesson at or above minConfidence", cs)
	}
	c = cs[0]
	for p, want := range map[string]bool{
		"/home/ann/app/src/config/settings.ts":               true,
		"/home/bob/clones/app/src/config/settings.ts":        true,
		"/home/ann/app/packages/core/src/config/settings.ts": false,
		"/home/ann/app/src/config/other.ts":                  false,
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Read", Path: p}); got != want {
			t.Errorf("fires before Read %q = %v, want %v (paths %q)", p, got, want, c.Triggers.Paths)
		}
	}
	if fires(t, c, lessons.ToolCall{Tool: "Write", Path: "/home/ann/app/src/config/settings.ts", Content: "x"}) {
		t.Errorf("fires before a Write of the path: writing it is how it comes to exist")
	}
}

// TestWrongPathNotWhenCreated: a file that did not exist and that the
// session then wrote, a folder it then wrote a file in, or a path used
// again and it worked, was missing, not wrong: no lesson.
func TestWrongPathNotWhenCreated(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		call("Read", map[string]any{"file_path": "/home/ann/app/docs/notes/plan.md"}, true, "File does not exist."),
		write("/home/ann/app/docs/notes/plan.md", "# Plan"),
		call("Read", map[string]any{"file_path": "/home/ann/app/old/docs/notes/plan.md"}, false, "# Old plan"),
		run("python3 scripts/gen/make_data.py", 2, "python3: can't open file '/home/ann/app/scripts/gen/make_data.py': [Errno 2] No such file or directory"),
		run("mkdir -p scripts/gen && cp /home/ann/old/scripts/gen/make_data.py scripts/gen/", 0, ""),
		run("python3 scripts/gen/make_data.py", 0, "ok"),
		call("Glob", map[string]any{"pattern": "*.md", "path": "/home/ann/.config/agent/skills"}, true, "Path does not exist: /home/ann/.config/agent/skills"),
		write("/home/ann/.config/agent/skills/review/skill.md", "# Review"),
		call("Glob", map[string]any{"pattern": "*.md", "path": "/home/ann/.config/old/agent/skills"}, false, "a.md"),
	})
	if cs := pathCandidates(t, dir); len(cs) != 0 {
		t.Errorf("%d lessons on a wrong path, want none: %+v", len(cs), cs)
	}
}

// TestWrongPathNeverOnACommonName: a bare name, a folder of the project,
// a variable, a glob, a temporary file or a package name is never a wrong
// path's trigger.
func TestWrongPathNeverOnACommonName(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		run("cat README.md", 1, "cat: README.md: No such file or directory"),
		run("cat docs/README.md", 0, "# App"),
		run("ls src/", 2, "ls: cannot access 'src/': No such file or directory"),
		run("cd web && npm test", 1, "cd: no such file or directory: web"),
		run("cat $OUT/report.txt", 1, "cat: /out/report.txt: No such file or directory"),
		run("cat /tmp/run-1/report.txt", 1, "cat: /tmp/run-1/report.txt: No such file or directory"),
		run("cat /home/ann/app/build/run-2/report.txt", 0, "ok"),
		run("npm install @acme/ui-kit", 1, "npm error 404 Not Found - '@acme/ui-kit' is not in this registry; @acme/ui-kit not found"),
		run("npm install @acme-corp/ui-kit", 0, "added 1 package"),
		call("Read", map[string]any{"file_path": "/home/ann/app/src/*/index.ts"}, true, "File does not exist."),
		call("Read", map[string]any{"file_path": "/home/ann/app/lib/web/index.ts"}, false, "export {}"),
	})
	if cs := pathCandidates(t, dir); len(cs) != 0 {
		t.Errorf("%d lessons on a wrong path, want none: %+v", len(cs), cs)
	}
}

// TestWrongPathMissingInTwoSessions: a notes file read in an agent's
// per-project folder that is never there, in two sessions of the project,
// nothing of its name found: one lesson, never proposed (it tells where
// a file is not, not where it is), said after the same Read fails again,
// in a third checkout too, and never before it. A file of the project, or
// of a folder whose files the session used, missing twice is none: files
// come and go there with the work.
func TestWrongPathMissingInTwoSessions(t *testing.T) {
	dir := t.TempDir()
	read := func(id string) {
		project := "/Users/ann/work/shop"
		slug := strings.ReplaceAll(project, "/", "-")
		writeClaude(t, dir, project, id, []step{
			call("Read", map[string]any{"file_path": "/Users/ann/.claude/projects/" + slug + "/memory/MEMORY.md"}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": project + "/docs/design/api.md"}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": "/Users/ann/lib/shared/docs/old.md"}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": "/Users/ann/lib/shared/src/new.ts"}, false, "export {}"),
			run("git status", 0, "clean"),
		})
	}
	read("s1")
	cs := pathCandidates(t, dir)
	if len(cs) != 1 || cs[0].Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Fatalf("after one session: %+v; want one lesson below minConfidence", cs)
	}
	read("s2")
	cs = pathCandidates(t, dir)
	cfg := lessons.DefaultConfig()
	if len(cs) != 1 || cs[0].Confidence >= cfg.MinConfidence || !cs[0].Reminder(cfg) || len(cs[0].Sessions) != 2 {
		t.Fatalf("after two sessions: %+v; want one reminder of two sessions below minConfidence", cs)
	}
	c := cs[0]
	if !strings.Contains(c.Solution, "2 sessions") {
		t.Errorf("solution %q: want the sessions it was missing in", c.Solution)
	}
	other := "/Users/ann/.claude/projects/-Users-ann-work-shop-c/memory/MEMORY.md"
	if fires(t, c, lessons.ToolCall{Tool: "Read", Path: other}) || !fires(t, c, lessons.ToolCall{Tool: "Read", Path: other, Error: "File does not exist."}) {
		t.Errorf("triggers %+v: want it after the same Read failed in another checkout, and not before", c.Triggers)
	}
	if fires(t, c, lessons.ToolCall{Tool: "Read", Path: "/Users/ann/work/shop-c/docs/MEMORY.md"}) {
		t.Errorf("paths %q: fires on another file of the same name", c.Triggers.Paths)
	}
}

func TestPathKey(t *testing.T) {
	for _, tc := range []struct{ p, project, want string }{
		{"/home/ann/app/src/a.go", "/home/ann/app", "src/a.go"},
		{"/home/ann/go/bin/go", "/home/ann/app", "~/go/bin/go"},
		{"/Users/ann/.claude/projects/-Users-ann-app/memory/MEMORY.md", "/Users/ann/app", "~/.claude/projects/*/memory/MEMORY.md"},
		{"/usr/local/go/bin/go", "/home/ann/app", "/usr/local/go/bin/go"},
		{"scripts/x.sh", "", "scripts/x.sh"},
	} {
		if got := pathKey(tc.p, tc.project); got != tc.want {
			t.Errorf("pathKey(%q, %q) = %q, want %q", tc.p, tc.project, got, tc.want)
		}
	}
}

// TestWrongPathWithANumberWaits: a wrong path with a version in it (a
// plugin's cache of one release) is one task's: below minConfidence until
// a second session.
func TestWrongPathWithANumberWaits(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		run("/home/ann/.cache/tool/1.4.2/bin/lint-check src", 127, "zsh:1: no such file or directory: /home/ann/.cache/tool/1.4.2/bin/lint-check"),
		run("/home/ann/.cache/tool/1.5.0/bin/lint-check src", 0, "ok"),
	})
	cs := pathCandidates(t, dir)
	if len(cs) != 1 || cs[0].Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Errorf("%+v: want one lesson below minConfidence", cs)
	}
}

// TestWrongPathNotAfterACd: a shell that keeps its directory between
// calls stands where the last cd took it, even one chained before a
// command (cd web && npm install); a relative path its error names only
// as written is then no wrong path of the project, wherever a file of
// its name turns up. Back in the project's folder, it is again.
func TestWrongPathNotAfterACd(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/dev/shop", "s1", []step{
		run("cd web && npm install", 0, ""),
		run("cat src/app-config.json", 1, "cat: src/app-config.json: No such file or directory"),
		run("cat /home/dev/shop/config/src/app-config.json", 0, "{}"),
	})
	if cs := pathCandidates(t, dir); len(cs) != 0 {
		t.Errorf("candidates %+v: want none, the shell stood in web/", cs)
	}
	writeClaude(t, dir, "/home/dev/shop", "s1", []step{
		run("cd web && npm install", 0, ""),
		run("cd /home/dev/shop", 0, ""),
		run("cat src/app-config.json", 1, "cat: src/app-config.json: No such file or directory"),
		run("cat /home/dev/shop/config/src/app-config.json", 0, "{}"),
	})
	if cs := pathCandidates(t, dir); len(cs) != 1 {
		t.Errorf("%d candidates, want 1: back in the project's folder, the path was wrong", len(cs))
	}
}

// TestWrongPathOutsideTheProjectWaits: a tool's config file guessed at in
// the home directory, then found elsewhere, is the agent's guess of the
// day, not the project's: below minConfidence after one session, at or
// above it when a second session guesses the same. A wrong path in the
// project, found outside it in two sessions, is a lesson too.
func TestWrongPathOutsideTheProjectWaits(t *testing.T) {
	dir := t.TempDir()
	guess := func(id string) {
		writeClaude(t, dir, "/home/ann/dots", id, []step{
			call("Read", map[string]any{"file_path": "/home/ann/.toolrc/settings/main.json"}, true, "File not found: /home/ann/.toolrc/settings/main.json"),
			call("Read", map[string]any{"file_path": "/home/ann/dots/config/toolrc/settings/main.json"}, false, "{}"),
		})
	}
	guess("s1")
	cs := pathCandidates(t, dir)
	if len(cs) != 1 || cs[0].Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Fatalf("after one session: %+v; want one lesson below minConfidence", cs)
	}
	guess("s2")
	if cs = pathCandidates(t, dir); len(cs) != 1 || cs[0].Confidence < lessons.DefaultConfig().MinConfidence {
		t.Fatalf("after two sessions: %+v; want one lesson at or above minConfidence", cs)
	}

	dir = t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/ann/app", id, []step{
			run("tools/skills/lint/run-lint.sh src", 127, "zsh:1: no such file or directory: tools/skills/lint/run-lint.sh"),
			run("/home/ann/.agents/skills/lint/run-lint.sh src", 0, "ok"),
		})
	}
	if cs = pathCandidates(t, dir); len(cs) != 1 || cs[0].Confidence < lessons.DefaultConfig().MinConfidence {
		t.Errorf("a path of the project found outside it, in two sessions: %+v; want one lesson at or above minConfidence", cs)
	}
}

// TestWrongFolder: in two sessions a file is read under a folder that is
// not there (the project's root guessed as shop-app), each time another
// file, found under the same names in the project; in a third, another
// file of the same name is read instead. One lesson listed, on the
// folder, seen in the three sessions: it comes before any file tool call
// under the wrong folder, and not under the right one. A folder the
// session read another file in exists: only that file was elsewhere, and
// no lesson is on the folder.
func TestWrongFolder(t *testing.T) {
	const project, guessed = "/home/ann/work/shop", "/home/ann/work/shop-app"
	missing := "<tool_use_error>File does not exist. Note: your current working directory is " + project + ".</tool_use_error>"
	dir := t.TempDir()
	for id, file := range map[string]string{"s1": "src/cart.ts", "s2": "lib/db/pool.ts"} {
		writeClaude(t, dir, project, id, []step{
			call("Read", map[string]any{"file_path": guessed + "/" + file}, true, missing),
			call("Read", map[string]any{"file_path": project + "/" + file}, false, "export {}"),
		})
	}
	// another file of the same name read instead: a lesson on the file,
	// folded into the folder's
	writeClaude(t, dir, project, "s3", []step{
		call("Read", map[string]any{"file_path": guessed + "/app/generate/actions.ts"}, true, missing),
		call("Read", map[string]any{"file_path": project + "/app/settings/actions.ts"}, false, "export {}"),
	})
	cs := slices.DeleteFunc(pathCandidates(t, dir), func(c Candidate) bool { return c.Status == StatusFolded })
	if len(cs) != 1 {
		t.Fatalf("%d lessons on a wrong path listed, want 1 on the folder: %v", len(cs), summaries(cs))
	}
	c := cs[0]
	if len(c.Sessions) != 3 || c.Confidence < lessons.DefaultConfig().MinConfidence {
		t.Errorf("sessions %v, confidence %.2f: want all three sessions, proposed", c.Sessions, c.Confidence)
	}
	if !strings.Contains(c.Summary, "`"+project+"/`") {
		t.Errorf("summary %q: want the folder that worked", c.Summary)
	}
	for p, want := range map[string]bool{
		guessed + "/test/cart.test.ts": true,
		project + "/src/cart.ts":       false,
		"/home/ann/work/other/x.ts":    false,
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Read", Path: p}); got != want {
			t.Errorf("fires before Read %q = %v, want %v (paths %q)", p, got, want, c.Triggers.Paths)
		}
	}

	dir = t.TempDir()
	writeClaude(t, dir, project, "s1", []step{
		call("Read", map[string]any{"file_path": guessed + "/README.md"}, false, "# shop-app"),
		call("Read", map[string]any{"file_path": guessed + "/src/cart.ts"}, true, missing),
		call("Read", map[string]any{"file_path": project + "/src/cart.ts"}, false, "export {}"),
	})
	for _, c := range pathCandidates(t, dir) {
		if strings.HasSuffix(c.Family, "/") {
			t.Errorf("lesson %q on a folder the session read a file in", c.Summary)
		}
	}
}

// TestWrongPathFoundUnderTheSameFolders: a file read under a folder that
// is not there; the agent first opens another file of the same name,
// then the one under the same folders. The lesson points at the folder
// that holds the same folders, not at the first file of the name.
func TestWrongPathFoundUnderTheSameFolders(t *testing.T) {
	const project, guessed = "/home/ann/work/shop", "/home/ann/work/shop-app"
	missing := "<tool_use_error>File does not exist. Note: your current working directory is " + project + ".</tool_use_error>"
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, project, id, []step{
			call("Read", map[string]any{"file_path": guessed + "/app/generate/actions.ts"}, true, missing),
			call("Read", map[string]any{"file_path": project + "/app/settings/actions.ts"}, false, "export {}"),
			call("Read", map[string]any{"file_path": project + "/app/generate/actions.ts"}, false, "export {}"),
		})
	}
	cs := slices.DeleteFunc(pathCandidates(t, dir), func(c Candidate) bool { return c.Status == StatusFolded })
	if len(cs) != 1 {
		t.Fatalf("%d lessons on a wrong path listed, want 1: %v", len(cs), summaries(cs))
	}
	if s := cs[0].Summary; strings.Contains(s, "settings") || !strings.Contains(s, "`"+project+"/`") {
		t.Errorf("summary %q: want the folder that holds app/generate, not the other actions.ts", s)
	}
}

// TestFoldersGuessedTheSameLevelOff: the app's sources sit one level
// deeper than the agent thinks (Shop/Shop/Data, read as Shop/Data), and
// it guesses wrong under one folder, then another, in two sessions. The
// team is asked about one lesson that names both folders and comes
// before a read under either, not about one lesson a folder; a folder
// that is there (Shop/Tests) stays quiet.
func TestFoldersGuessedTheSameLevelOff(t *testing.T) {
	const project = "/home/ann/work/shop"
	missing := "<tool_use_error>File does not exist. Note: your current working directory is " + project + ".</tool_use_error>"
	dir := t.TempDir()
	for i, folder := range []string{"Data", "Domain"} {
		writeClaude(t, dir, project, fmt.Sprint("s", i), []step{
			call("Read", map[string]any{"file_path": project + "/Shop/Tests/cart_test.swift"}, false, "import XCTest"),
			call("Read", map[string]any{"file_path": project + "/Shop/" + folder + "/Cart.swift"}, true, missing),
			call("Read", map[string]any{"file_path": project + "/Shop/Shop/" + folder + "/Cart.swift"}, false, "struct Cart {}"),
			call("Read", map[string]any{"file_path": project + "/Shop/" + folder + "/Order.swift"}, true, missing),
			call("Read", map[string]any{"file_path": project + "/Shop/Shop/" + folder + "/Order.swift"}, false, "struct Order {}"),
		})
	}
	cs := slices.DeleteFunc(pathCandidates(t, dir), func(c Candidate) bool { return c.Status == StatusFolded })
	if len(cs) != 1 {
		t.Fatalf("%d lessons on wrong paths listed, want 1: %v", len(cs), summaries(cs))
	}
	c := cs[0]
	if !strings.Contains(c.Summary, "`Shop/Data/`") || !strings.Contains(c.Summary, "`Shop/Domain/`") || !strings.Contains(c.Summary, "`Shop/Shop/`") {
		t.Errorf("summary %q: want both folders and where they are", c.Summary)
	}
	if c.Confidence < lessons.DefaultConfig().MinConfidence {
		t.Errorf("confidence %.2f: want it proposed, the mistake was made in two sessions", c.Confidence)
	}
	for p, want := range map[string]bool{
		project + "/Shop/Data/Basket.swift":      true,
		project + "/Shop/Domain/Price.swift":     true,
		project + "/Shop/Shop/Data/Basket.swift": false,
		project + "/Shop/Tests/cart_test.swift":  false,
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Read", Path: p}); got != want {
			t.Errorf("fires before a read of %s: %v, want %v", p, got, want)
		}
	}
}

// TestWrongFolderShapes: the folder lesson needs the same folders and
// name under another root; a wrong path with folders the right one lacks,
// however many, is no wrong root (and must not be read past its start).
func TestWrongFolderShapes(t *testing.T) {
	a := &analyzer{sess: Session{Project: "/home/ann/work/shop"}}
	for _, tc := range []struct{ wrong, found, want string }{
		{"/home/ann/work/shop-app/src/cart.ts", "/home/ann/work/shop/src/cart.ts", "/home/ann/work/shop-app"},
		{"/home/ann/work/shop/x/y/z/v/u/t/src/cart.ts", "/home/ann/work/shop/src/cart.ts", ""},
		{"/home/ann/work/a/b/c/d/e/f/g/h/i/src/cart.ts", "/home/ann/src/cart.ts", ""},
		{"/home/ann/work/shop/lib/cart.ts", "/home/ann/work/shop/src/cart.ts", ""},
		// a level of a repeated name left out, or one too many: the
		// folder that is not there, not the shop folder that is
		{"/home/ann/work/shop/Shop/Domain/cart.ts", "/home/ann/work/shop/Shop/Shop/Domain/cart.ts", "/home/ann/work/shop/Shop/Domain"},
		{"/home/ann/work/shop/Shop/Shop/Domain/cart.ts", "/home/ann/work/shop/Shop/Domain/cart.ts", "/home/ann/work/shop/Shop/Shop"},
	} {
		m := &missingWatch{rec: &callRec{call: &Call{Tool: "Read", Path: tc.wrong}}, abs: tc.wrong, found: tc.found, by: &Call{Tool: "Read", Path: tc.found}}
		if got, _ := a.wrongFolder(m); got != tc.want {
			t.Errorf("wrongFolder(%s, found %s) = %q, want %q", tc.wrong, tc.found, got, tc.want)
		}
	}
}

// FuzzWrongFolder: any pair of paths gives a folder or none, never a
// panic.
func FuzzWrongFolder(f *testing.F) {
	f.Add("/home/ann/work/shop-app/src/cart.ts", "/home/ann/work/shop/src/cart.ts")
	f.Add("/a/b/c/d/e/f/g/src/x", "/a/src/x")
	f.Fuzz(func(t *testing.T, wrong, found string) {
		a := &analyzer{sess: Session{Project: "/home/ann/work/shop"}}
		m := &missingWatch{rec: &callRec{call: &Call{Tool: "Read", Path: wrong}}, abs: wrong, found: found, by: &Call{Tool: "Read", Path: found}}
		a.wrongFolder(m)
	})
}

// TestWrongPathNotOnANameOfMany: a file read where it is not, then files
// of its name in two other folders (an index.ts, as a package has many):
// the name does not say which file was meant, and the first one read is
// as likely another file, so no lesson says where it is. The same file
// found under more of its folders (src/index.ts) is the one, unless
// another file used shares as many (src/lib.rs in two crates of a
// workspace).
func TestWrongPathNotOnANameOfMany(t *testing.T) {
	for _, tc := range []struct {
		name, missing string
		reads         []string
		want          int
	}{
		{"two other folders", "/home/ann/app/db/types/index.ts", []string{"/home/ann/app/db/src/index.ts", "/home/ann/app/web/lib/index.ts"}, 0},
		{"one other folder", "/home/ann/app/db/types/index.ts", []string{"/home/ann/app/db/src/index.ts"}, 1},
		{"more of its folders", "/home/ann/src/index.ts", []string{"/home/ann/app/api/src/index.ts", "/home/ann/app/web/lib/index.ts"}, 1},
		{"as many in two crates", "/home/ann/app/src/lib.rs", []string{"/home/ann/app/crates/models/src/lib.rs", "/home/ann/app/crates/optim/src/lib.rs"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, s := range []string{"s1", "s2"} {
				steps := []step{call("Read", map[string]any{"file_path": tc.missing}, true, "File does not exist.")}
				for _, p := range tc.reads {
					steps = append(steps, call("Read", map[string]any{"file_path": p}, false, "export {}"))
				}
				writeClaude(t, dir, "/home/ann/app", s, steps)
			}
			if cs := pathCandidates(t, dir); len(cs) != tc.want {
				t.Errorf("%d lessons on a wrong path, want %d: %v", len(cs), tc.want, summaries(cs))
			}
		})
	}
}

// TestWrongPathNotTheFileThatAsked: a script run fails because a module
// it imports is missing ("Cannot find module 'a' imported from
// script.mjs"); the script is there, and a copy of it elsewhere whose
// module was built works. The script is no wrong path: the error says
// what is missing, and names the script only as the file that asked.
func TestWrongPathNotTheFileThatAsked(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		run("node /home/ann/tools/a/skills/scan.mjs /home/ann/app", 1,
			"node:internal/modules/esm/resolve:275\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/home/ann/tools/a/core/dist/index.js' imported from /home/ann/tools/a/skills/scan.mjs"),
		run("node /home/ann/tools/b/skills/scan.mjs /home/ann/app", 0, "scanned 12 files"),
	})
	if cs := pathCandidates(t, dir); len(cs) != 0 {
		t.Errorf("%d lessons on a wrong path, want none: %v", len(cs), summaries(cs))
	}
}

// TestWrongFolderUsedLater: a folder lesson whose wrong folder later
// sessions used files in, and that worked, in as many folders as the
// sessions it failed in, is held back: the folder is there, the files
// were missing one by one. Uses in an earlier session say nothing (a
// folder may be moved since), nor does one use against two failures.
func TestWrongFolderUsedLater(t *testing.T) {
	const project, guessed = "/home/ann/work/shop", "/home/ann/work/shop-app"
	missing := "<tool_use_error>File does not exist. Note: your current working directory is " + project + ".</tool_use_error>"
	now := time.Now()
	for _, tc := range []struct {
		name     string
		at       time.Duration // when the session that used the folder ran, against the mistakes
		files    []string      // it read under the wrong folder
		proposed bool
	}{
		{"used later", time.Hour, []string{"README.md", "src/old.ts"}, false},
		{"used before", -time.Hour, []string{"README.md", "src/old.ts"}, true},
		{"used once later", time.Hour, []string{"README.md"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for id, file := range map[string]string{"s1": "src/cart.ts", "s2": "lib/db/pool.ts"} {
				writeClaude(t, dir, project, id, []step{
					call("Read", map[string]any{"file_path": guessed + "/" + file}, true, missing),
					call("Read", map[string]any{"file_path": project + "/" + file}, false, "export {}"),
				})
				os.Chtimes(filepath.Join(dir, id+".jsonl"), now.Add(-3*time.Hour), now.Add(-3*time.Hour))
			}
			var reads []step
			for _, f := range tc.files {
				reads = append(reads, call("Read", map[string]any{"file_path": guessed + "/" + f}, false, "x"))
			}
			writeClaude(t, dir, guessed, "s3", reads)
			at := now.Add(-3*time.Hour + tc.at)
			os.Chtimes(filepath.Join(dir, "s3.jsonl"), at, at)
			var folder *Candidate
			for _, c := range pathCandidates(t, dir) {
				if strings.HasSuffix(c.Family, "/") && c.Status == StatusNew {
					folder = &c
				}
			}
			if folder == nil {
				t.Fatal("no folder lesson")
			}
			if got := folder.Confidence >= lessons.DefaultConfig().MinConfidence; got != tc.proposed {
				t.Errorf("proposed %v (confidence %.2f), want %v", got, folder.Confidence, tc.proposed)
			}
		})
	}
}

// TestWrongFolderWhereTheSessionRan: a file missing under the folder the
// session runs in, found under another: the folder is there (the session
// stands in it), so no lesson says it is not.
func TestWrongFolderWhereTheSessionRan(t *testing.T) {
	const here, other = "/home/ann/work/site", "/home/ann/work/api"
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, here, id, []step{
			call("Read", map[string]any{"file_path": here + "/src/db/pool.ts"}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": other + "/src/db/pool.ts"}, false, "export {}"),
		})
	}
	for _, c := range pathCandidates(t, dir) {
		if strings.HasSuffix(c.Family, "/") {
			t.Errorf("a folder lesson on the folder the session ran in: %q", c.Summary)
		}
	}
}

// TestWrongPathThatWorksLater: a file read where it was not in two
// sessions, and found at the same other place, is a lesson; once later
// sessions read it where it was not, and it worked, as often as it
// failed (the file moved back), the lesson would come before calls that
// go fine: it is held below minConfidence, whether the later sessions
// come in the same scan or a later one. The files carry one time, as a
// checkout of a history writes them: their order is their names'.
func TestWrongPathThatWorksLater(t *testing.T) {
	cfg := lessons.DefaultConfig()
	const wrong, right = "/work/shop/src/models/Cart.swift", "/work/shop/src/Cart.swift"
	dir, state := t.TempDir(), t.TempDir()
	session := func(id string, steps ...step) {
		writeClaude(t, dir, "/work/shop", id, steps)
		stamp := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(dir, id+".jsonl"), stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	failed := func(id string) {
		session(id, call("Read", map[string]any{"file_path": wrong}, true, "File does not exist."),
			call("Read", map[string]any{"file_path": right}, false, "struct Cart {}"))
	}
	worked := func(id string) {
		session(id, call("Read", map[string]any{"file_path": wrong}, false, "struct Cart {}"))
	}
	made := func(id string) {
		session(id, call("Write", map[string]any{"file_path": wrong, "content": "struct Cart {}"}, false, "File created"))
	}
	lesson := func() Candidate {
		t.Helper()
		scan(t, state, Options{Paths: []string{dir}})
		out := ofKind(candidates(t, state), KindPath)
		if len(out) != 1 {
			t.Fatalf("%d lessons on the wrong path, want 1: %+v", len(out), out)
		}
		return out[0]
	}
	failed("s1")
	failed("s2")
	if c := lesson(); c.Confidence < cfg.MinConfidence {
		t.Fatalf("confidence %.2f: found at the same place in two sessions, want proposed", c.Confidence)
	}
	// a file written where it was not is made there, not found there
	made("s2a")
	made("s2b")
	if c := lesson(); c.Confidence < cfg.MinConfidence || c.Signals.Works {
		t.Errorf("confidence %.2f, works %v: written twice where it was not, want still proposed", c.Confidence, c.Signals.Works)
	}
	worked("s3")
	if c := lesson(); c.Confidence < cfg.MinConfidence || c.Signals.Works {
		t.Errorf("confidence %.2f, works %v: worked in one later session of two that failed, want still proposed", c.Confidence, c.Signals.Works)
	}
	worked("s4")
	if c := lesson(); c.Confidence >= cfg.MinConfidence || !c.Signals.Works {
		t.Errorf("confidence %.2f, works %v: worked in two later sessions, want held", c.Confidence, c.Signals.Works)
	}
	state = t.TempDir()
	if c := lesson(); c.Confidence >= cfg.MinConfidence || !c.Signals.Works {
		t.Errorf("one scan of the four: confidence %.2f, works %v, want held", c.Confidence, c.Signals.Works)
	}
	// the same sessions, the file used first and missing since: it moved
	// away, and the lesson stands
	dir, state = t.TempDir(), t.TempDir()
	worked("s1")
	worked("s2")
	failed("s3")
	failed("s4")
	if c := lesson(); c.Confidence < cfg.MinConfidence || c.Signals.Works {
		t.Errorf("used before it failed: confidence %.2f, works %v, want proposed", c.Confidence, c.Signals.Works)
	}
}

// TestCdToAFolderThatIsNot: a line's cd to a full path that does not
// exist failed, and the commands after it never ran; the same line with
// the right folder worked. The mistake is the folder, not how the
// commands after the cd are run: no retry's lesson comes before every
// git branch. A relative cd that failed because an earlier one left the
// shell inside the folder is a way to run the rest, and stays a lesson.
func TestCdToAFolderThatIsNot(t *testing.T) {
	for _, tc := range []struct {
		failing, fixed, err string
		lesson              bool
	}{
		{"cd /Users/dev/src/card-place && git branch --show-current", "cd /Users/dev/src/app-card-place && git branch --show-current && git log --oneline -5",
			"(eval):cd:1: no such file or directory: /Users/dev/src/card-place", false},
		{"cd hybrid_vsim && git log --oneline -5", "git -C /home/dev/work/hybrid_sim/hybrid_vsim log --oneline -5",
			"(eval):cd:1: no such file or directory: hybrid_vsim", true},
	} {
		dir, state := t.TempDir(), t.TempDir()
		for _, id := range []string{"s1", "s2"} {
			writeClaude(t, dir, "/Users/dev/src/app", id, []step{run(tc.failing, 1, tc.err), run(tc.fixed, 0, "main")})
		}
		scan(t, state, Options{Paths: []string{dir}})
		got := false
		for _, c := range candidates(t, state) {
			got = got || c.Kind == KindRetry && c.Confidence >= lessons.DefaultConfig().MinConfidence
		}
		if got != tc.lesson {
			t.Errorf("%s: a retry's lesson proposed = %v, want %v", tc.failing, got, tc.lesson)
		}
	}
}

// TestWrongPathOnWindows: PowerShell reads a file by a Windows path that
// is not there, and the file is read from another folder. The lesson is
// on the path as any Windows command names it, with either slash, and
// not on the path that worked.
func TestWrongPathOnWindows(t *testing.T) {
	dir := t.TempDir()
	writeCodex(t, dir, `D:\app`, "w1", []cxStep{
		execCmd(map[string]any{"cmd": `Get-Content -Raw C:\Users\me\.codex\skills\app-release\SKILL.md`, "workdir": `D:\app`}, 1,
			"Get-Content : Cannot find path 'C:\\Users\\me\\.codex\\skills\\app-release\\SKILL.md' because it does not exist."),
		execCmd(map[string]any{"cmd": `Get-Content -Raw D:\app\.agents\skills\app-release\SKILL.md`, "workdir": `D:\app`}, 0, "---\nname: app-release\n---\n"),
	})
	cs := pathCandidates(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons on a wrong path, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if !strings.Contains(c.Summary+c.Solution, "app/.agents/skills/app-release/SKILL.md") {
		t.Errorf("summary %q, solution %q: want the right path", c.Summary, c.Solution)
	}
	missing := "Get-Content : Cannot find path 'C:\\Users\\me\\.codex\\skills\\app-release\\SKILL.md' because it does not exist."
	for cmd, want := range map[string]bool{
		`Get-Content -Raw C:\Users\me\.codex\skills\app-release\SKILL.md`:   true,
		`Get-Content -Raw 'C:/Users/me/.codex/skills/app-release/SKILL.md'`: true,
		`Get-Content -Raw D:\app\.agents\skills\app-release\SKILL.md`:       false,
	} {
		if got := fires(t, c, lessons.ToolCall{Tool: "Bash", Command: cmd, Error: missing}); got != want {
			t.Errorf("fires at %q = %v, want %v (triggers %q, %q)", cmd, got, want, c.Triggers.Commands, c.Triggers.Errors)
		}
	}
}
