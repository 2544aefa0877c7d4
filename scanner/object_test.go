package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// failureLessons scans dir and returns its candidates that come with a
// failure (error triggers), whatever their kind, but folded ones.
func failureLessons(t *testing.T, dir string) []Candidate {
	t.Helper()
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	var out []Candidate
	for _, c := range candidates(t, state) {
		if len(c.Triggers.Errors) > 0 && c.Status != StatusFolded {
			out = append(out, c)
		}
	}
	return out
}

// TestErrorLessonOnAMissingObjectHoldsForAnyCommand: a module the
// workspace has not built is missing for every command that loads it.
// The lesson learned when `bun test` met it comes when `bun run
// typecheck` prints the same error about the same module in another
// wording, and not for another module, nor before any call.
func TestErrorLessonOnAMissingObjectHoldsForAnyCommand(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("bun test packages/app", 1, "bun test v1.2.0\n\npackages/app/src/a.test.ts:\n\n# Unhandled error between tests\n"+
			"error: Cannot find module '@acme/core' from '/w/p/packages/app/src/a.test.ts'\n\n 0 pass\n 1 fail"),
		run("bun run --filter @acme/core build", 0, "$ tsc -p tsconfig.json"),
		run("bun test packages/app", 0, " 4 pass\n 0 fail"),
	})
	cs := failureLessons(t, dir)
	if len(cs) != 1 {
		t.Fatalf("%d lessons at the failure, want 1: %+v", len(cs), cs)
	}
	l := ToLesson(cs[0])
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Errorf("the lesson does not validate: %v", ps)
	}
	if len(l.Triggers.Commands) != 0 {
		t.Errorf("command triggers %q: want any command that prints the error", l.Triggers.Commands)
	}
	for _, tt := range []struct {
		call lessons.ToolCall
		want bool
	}{
		{lessons.ToolCall{Tool: "Bash", Command: "bun run typecheck",
			Error: "src/index.ts(1,22): error TS2307: Cannot find module '@acme/core' or its corresponding type declarations."}, true},
		{lessons.ToolCall{Tool: "Bash", Command: "node scripts/gen.js", Error: "Error: Cannot find module '@acme/core'\nRequire stack:\n- /w/p/scripts/gen.js"}, true},
		{lessons.ToolCall{Tool: "Bash", Command: "bun test packages/app", Error: "error: Cannot find module '@acme/web' from '/w/p/packages/app/src/a.test.ts'"}, false},
		{lessons.ToolCall{Tool: "Bash", Command: "bun test packages/app"}, false},
		{lessons.ToolCall{Tool: "Bash", Command: "bun run typecheck", Error: "src/index.ts(3,1): error TS2304: Cannot find name 'core'."}, false},
	} {
		if got := firesOn(l, []lessons.ToolCall{tt.call}); got != tt.want {
			t.Errorf("lesson %q with triggers %+v on %+v: fires %v, want %v", l.Summary, l.Triggers, tt.call, got, tt.want)
		}
	}
}

// TestErrorLessonOnAMissingObjectCountsEveryCommand: a missing program
// that no call got past, met by `make build` in one session and by `go
// test` in the next, came back: one lesson seen in two sessions, where
// each command alone was seen once.
func TestErrorLessonOnAMissingObjectCountsEveryCommand(t *testing.T) {
	dir := t.TempDir()
	gone := "/bin/bash: line 1: protoc: command not found"
	writeClaude(t, dir, "/p", "s1", []step{write("/p/api/a.proto", "syntax = \"proto3\";"), run("make build", 2, "protoc --go_out=. api/a.proto\n"+
		"make: protoc: No such file\n"+gone+"\nmake: *** [Makefile:4: gen] Error 127")})
	writeClaude(t, dir, "/p", "s2", []step{write("/p/api/b.proto", "syntax = \"proto3\";"), run("go generate ./...", 1, "api/gen.go:3: running \"protoc\": "+gone)})
	var got []Candidate
	for _, c := range failureLessons(t, dir) {
		if strings.Contains(strings.Join(c.Triggers.Errors, " "), "protoc") {
			got = append(got, c)
		}
	}
	if len(got) != 1 || len(got[0].Sessions) != 2 || !got[0].Reminder(lessons.DefaultConfig()) {
		t.Fatalf("lessons on the missing program %+v: want one, seen in 2 sessions, a reminder", got)
	}
}

// TestErrorLessonOnAnErrorOfTheCommandStaysWithIt: an error whose
// class keeps no object's name (a script the package does not have,
// quoted and so masked) keeps its command's family: it is about how that
// command was called. A guard: it holds on the old code too.
func TestErrorLessonOnAnErrorOfTheCommandStaysWithIt(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{write("/p/web/a.ts", "x"), run("cd web && bun run lint", 1, "error: Script not found \"lint\"")})
	}
	cs := failureLessons(t, dir)
	if len(cs) == 0 {
		t.Fatal("no lesson at the failure")
	}
	for _, c := range cs {
		if len(c.Triggers.Commands) == 0 {
			t.Errorf("lesson %q with triggers %+v: want its command kept", c.Summary, c.Triggers)
		}
	}
}

// TestErrorLessonOnAMissingVariable: an environment variable the
// project's code needs is missing for every command that runs that code.
// Seen under `bun run test` and then `bun run typecheck`, it is one
// lesson from two sessions, that comes when any command says that
// variable is missing, and not for another variable.
func TestErrorLessonOnAMissingVariable(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{write("/p/src/db.ts", "x"), run("bun run test", 1, "$ bun test\n"+
		"error: Missing SHOP_DB_URL or SHOP_DB_HOST\n      at getEnv (/w/p/src/db.ts:4:9)\n 0 pass\n 1 fail")})
	writeClaude(t, dir, "/p", "s2", []step{write("/p/src/api.ts", "x"), run("bun run typecheck", 1, "$ bun scripts/check.ts\n"+
		"error: Missing SHOP_DB_URL or SHOP_DB_HOST\n      at getEnv (/w/p/src/db.ts:4:9)")})
	var got []Candidate
	for _, c := range failureLessons(t, dir) {
		if strings.Contains(strings.Join(c.Triggers.Errors, " "), "SHOP_DB_URL") {
			got = append(got, c)
		}
	}
	if len(got) != 1 || len(got[0].Sessions) != 2 || len(got[0].Triggers.Commands) != 0 {
		t.Fatalf("lessons on the missing variable %+v: want one, seen in 2 sessions, for any command", got)
	}
	l := ToLesson(got[0])
	for _, tt := range []struct {
		call lessons.ToolCall
		want bool
	}{
		{lessons.ToolCall{Tool: "Bash", Command: "bun run dev", Error: "error: Missing SHOP_DB_URL or SHOP_DB_HOST"}, true},
		{lessons.ToolCall{Tool: "Bash", Command: "bun run test", Error: "error: Missing SHOP_CACHE_URL or SHOP_CACHE_HOST"}, false},
	} {
		if ok := firesOn(l, []lessons.ToolCall{tt.call}); ok != tt.want {
			t.Errorf("lesson with triggers %+v on %+v: fires %v, want %v", l.Triggers, tt.call, ok, tt.want)
		}
	}
}

// TestErrorLessonOnARefusalOfAFileTool: the machine refuses a search
// tool a protected folder of the home directory, in one session on one
// folder and in the next on another. The lesson is on the refusal for
// that tool, in any of its wordings, whatever the path: not on the
// first occurrence's line, which names its folder; and not for the
// shell, nor after another error of the tool.
func TestErrorLessonOnARefusalOfAFileTool(t *testing.T) {
	for _, tool := range []string{"Glob", "Grep"} {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			search := map[string]any{"pattern": "**/*.toml", "path": "/home/u"}
			writeClaude(t, dir, "/home/u", "s1", []step{call(tool, search, true, "rg: ./Mail: Operation not permitted (os error 1)")})
			writeClaude(t, dir, "/home/u", "s2", []step{call(tool, search, true, "rg: ./Photos: Operation not permitted (os error 1)")})
			cs := failureLessons(t, dir)
			if len(cs) != 1 || len(cs[0].Sessions) != 2 {
				t.Fatalf("lessons at the failure %+v: want one, seen in 2 sessions", cs)
			}
			l := ToLesson(cs[0])
			if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
				t.Errorf("the lesson does not validate: %v", ps)
			}
			for _, tt := range []struct {
				call lessons.ToolCall
				want bool
			}{
				{lessons.ToolCall{Tool: tool, Path: "/home/u", Error: "rg: ./Music/Library: Operation not permitted (os error 1)"}, true},
				{lessons.ToolCall{Tool: tool, Path: "/home/u", Error: "EPERM: operation not permitted, scandir '/home/u/Music'"}, true},
				{lessons.ToolCall{Tool: tool, Path: "/home/u", Error: "rg: ./Music: No such file or directory (os error 2)"}, false},
				{lessons.ToolCall{Tool: "Bash", Command: "ls ~/Music", Error: "ls: ./Music: Operation not permitted"}, false},
			} {
				if got := firesOn(l, []lessons.ToolCall{tt.call}); got != tt.want {
					t.Errorf("lesson %q with triggers %+v on %+v: fires %v, want %v", l.Summary, l.Triggers, tt.call, got, tt.want)
				}
			}
		})
	}
}

// TestErrorTriggerOfARefusalOfAFileTool: a lesson on an error that a
// file tool's refusal got past (a Read refused, then another way) is on
// the refusal for that tool, whatever the file and the wording.
func TestErrorTriggerOfARefusalOfAFileTool(t *testing.T) {
	line := "EPERM: operation not permitted, open '/home/u/Mail/prefs.toml'"
	tr, ex, ok := errorTrigger("Read", "/home/u/Mail/prefs.toml", line, lessons.ErrorClass(line), lessons.Family{}, "")
	if !ok || len(tr.Tools) != 1 || tr.Tools[0] != "Read" || len(ex.Match) != 1 || ex.Match[0].Path != "/home/u/Mail/prefs.toml" {
		t.Fatalf("errorTrigger = %+v, %+v, %v; want the Read tool and the refused file as the example", tr, ex, ok)
	}
	c := Candidate{Triggers: tr}
	for _, tt := range []struct {
		out  string
		want bool
	}{
		{line, true},
		{"EPERM: operation not permitted, scandir '/home/u/Photos'", true},
		{"rg: ./Photos: Operation not permitted (os error 1)", true},
		{"ENOENT: no such file or directory, open '/home/u/Mail/prefs.toml'", false},
	} {
		if got := errorFires(t, c, tt.out); got != tt.want {
			t.Errorf("error trigger %q on %q: fires %v, want %v", tr.Errors, tt.out, got, tt.want)
		}
	}
}
