package scanner

import (
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestErrorLessonOfAnotherToolsStep: a browser tool failed with no page
// open, the navigate tool of its server ran, and the same click worked;
// a code tool failed with no project active, the activate tool ran, and
// the next query worked. A lesson after each error names the step to
// take first, as a reminder. Before, the first read "it fails now and
// then, run it again" and the second taught the query's own argument.
func TestErrorLessonOfAnotherToolsStep(t *testing.T) {
	dir := t.TempDir()
	const click, nav = "mcp__pw__browser_click", "mcp__pw__browser_navigate"
	const find, act, list = "mcp__serena__find_symbol", "mcp__serena__activate_project", "mcp__serena__list_dir"
	writeClaude(t, dir, "/p", "s1", []step{
		call(click, map[string]any{"ref": "e12"}, true, "Error: No open pages available. Navigate to a page first."),
		call(nav, map[string]any{"url": "http://localhost:3000"}, false, "Page URL: http://localhost:3000"),
		call(click, map[string]any{"ref": "e12"}, false, "Clicked"),
		call(find, map[string]any{"name": "Foo"}, true, "Error: No active project. Ask the user to select a project from this list of known projects: [app]"),
		call(act, map[string]any{"project": "app"}, false, "Activated project app"),
		call(find, map[string]any{"name": "Bar"}, false, "[]"),
		// a symbol not found, then another name after a look around:
		// the look is no step, the name is the task's
		call(find, map[string]any{"name": "Baz"}, true, "Error: symbol 'Baz' not found"),
		call(list, map[string]any{"path": "src"}, false, "a.py b.py"),
		call(find, map[string]any{"name": "Qux"}, false, "[]"),
	})
	cs := errorCandidates(t, dir)
	cfg := lessons.DefaultConfig()
	for _, want := range []struct{ tool, step string }{{click, nav}, {find, act}} {
		i := slices.IndexFunc(cs, func(c Candidate) bool {
			return c.Tool == want.tool && strings.Contains(c.Solution, "call `"+want.step+"`")
		})
		if i < 0 {
			t.Errorf("no lesson on %s's error naming %s first: %v", want.tool, want.step, solutions(cs))
			continue
		}
		if c := cs[i]; !c.Reminder(cfg) || c.Confidence >= cfg.MinConfidence {
			t.Errorf("%s: reminder %v, confidence %.2f: want a reminder, not proposed", want.tool, c.Reminder(cfg), c.Confidence)
		}
	}
	for _, c := range cs {
		if strings.Contains(c.Solution, list) || strings.Contains(c.Solution, "run it again before changing anything") {
			t.Errorf("solution %q: a look around or a flaky call taken for the step", c.Solution)
		}
	}
}

// TestErrorLessonOnAServiceNothingGotPast: an MCP tool failed for want
// of a login in two sessions, after the task's first edit, nothing got
// past it, and the agent went on editing files: a lesson after the same
// error says it came before and nothing got past it. Before, a tool's error that quotes nothing
// was read as the call's own input, moved on from, as a file tool's is.
func TestErrorLessonOnAServiceNothingGotPast(t *testing.T) {
	dir := t.TempDir()
	const issues = "mcp__tracker__list_issues"
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/src/b.go", "package a"),
			call(issues, map[string]any{"team": "core"}, true, "Error: Not authenticated. Your session has expired, sign in again."),
			write("/p/src/a.go", "package a"),
			run("go test ./...", 0, "ok  example.com/p/src 0.01s"),
		})
	}
	cs := errorCandidates(t, dir)
	i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Tool == issues })
	if i < 0 {
		t.Fatalf("no lesson on the service's error: %v", solutions(cs))
	}
	if c := cs[i]; len(c.Sessions) != 2 || !strings.Contains(c.Solution, "no retry") || !errorFires(t, c, "Error: Not authenticated. Your session has expired, sign in again.") {
		t.Errorf("sessions %d, solution %q: want both sessions, nothing got past it, after the same error", len(c.Sessions), c.Solution)
	}
}

// solutions lists candidates' tools and solutions, for a test's message.
func solutions(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Tool+": "+c.Solution)
	}
	return out
}

// TestErrorLessonOnAToolLimitNothingGotPast: Read refused a file over its
// size limit in two sessions, after the task's first edit (not a known
// failure, then), and each time the agent read it another
// way (the shell): a lesson after the same refusal
// says it came before and nothing got past it. Before, a tool's error
// that quotes nothing was taken for the call's own input, moved on
// from. A path that was not there, moved on from, is still no lesson on
// the error (a wrong path's lesson says it).
func TestErrorLessonOnAToolLimitNothingGotPast(t *testing.T) {
	dir := t.TempDir()
	limit := "File content (41210 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file."
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/p", id, []step{
			write("/p/src/"+id+".go", "package src"),
			call("Read", map[string]any{"file_path": "/p/data/" + id + ".json"}, true, limit),
			run("sed -n 1,200p data/"+id+".json", 0, "{\"rows\": []}"),
			call("Read", map[string]any{"file_path": "/p/notes/" + id + ".md"}, true, "File does not exist."),
		})
	}
	cs := errorCandidates(t, dir)
	i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Tool == "Read" && strings.Contains(c.Summary, "exceeds maximum") })
	if i < 0 {
		t.Fatalf("no lesson on Read's size limit: %v", solutions(cs))
	}
	if c := cs[i]; len(c.Sessions) != 2 || !errorFires(t, c, strings.Replace(limit, "41210", "30001", 1)) {
		t.Errorf("sessions %d, errors %q: want both sessions, after the same limit on any file", len(c.Sessions), c.Triggers.Errors)
	}
	for _, c := range cs {
		if strings.Contains(c.Summary, "File does not exist") {
			t.Errorf("a lesson on a missing path moved on from: %q", c.Summary)
		}
	}
}

// TestReadFirstIsTheStep: Claude Code refuses a Write of a file the
// session has not read ("File has not been read yet. Read it first");
// the agent reads it and the same Write works. The Read of that file is
// the step the error named, and the lesson says so; before, a file
// tool's call was never a step, so the lesson said the Write "fails now
// and then, so run it again before changing anything". A Read of
// another file is no step.
func TestReadFirstIsTheStep(t *testing.T) {
	for _, read := range []string{"/home/ann/app/.env", "/home/ann/app/README.md"} {
		dir := t.TempDir()
		writeClaude(t, dir, "/home/ann/app", "s1", []step{
			call("Write", map[string]any{"file_path": "/home/ann/app/.env", "content": "A=1\n"}, true, "File has not been read yet. Read it first before writing to it."),
			call("Read", map[string]any{"file_path": read}, false, "     1→B=2\n"),
			call("Write", map[string]any{"file_path": "/home/ann/app/.env", "content": "A=1\n"}, false, "File created successfully at: /home/ann/app/.env"),
		})
		cs := ofKind(candidatesOf(t, dir), KindError)
		if len(cs) != 1 {
			t.Fatalf("read %s: %d lessons on the error, want 1", read, len(cs))
		}
		named := strings.Contains(cs[0].Solution, "after you read /home/ann/app/.env")
		if named != (read == "/home/ann/app/.env") || read == "/home/ann/app/.env" && strings.Contains(cs[0].Solution, "now and then") {
			t.Errorf("read %s: lesson %q", read, cs[0].Solution)
		}
	}
}

// TestReadFirstThenEdit: the refused Write is not tried again; the agent
// reads the file and edits it instead. The edit of the same file after
// the Read got past the refusal (before, nothing did, and the edits after
// it dropped the lesson): a lesson on the error names the Read, and no
// known failure says the Write fails whatever is done.
func TestReadFirstThenEdit(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		call("Write", map[string]any{"file_path": "/home/ann/app/.env", "content": "A=1\n"}, true, "File has not been read yet. Read it first before writing to it."),
		call("Read", map[string]any{"file_path": "/home/ann/app/.env"}, false, "     1→B=2\n"),
		call("Edit", map[string]any{"file_path": "/home/ann/app/.env", "old_string": "B=2", "new_string": "A=1"}, false, "The file /home/ann/app/.env has been updated."),
	})
	cs := candidatesOf(t, dir)
	if k := ofKind(cs, KindKnown); len(k) != 0 {
		t.Errorf("known failures %q: the file was written", summaries(k))
	}
	e := ofKind(cs, KindError)
	if len(e) != 1 || !strings.Contains(e[0].Solution, "the next Edit call worked after you read /home/ann/app/.env") {
		t.Errorf("lessons on the error %q, want one naming the Read before the Edit", summaries(e))
	}
}

// TestALookRefusedThenOtherWork: a Read of a folder is refused
// (EISDIR); the agent lists the folder with the shell and goes on to
// edit other files. The edits did not get past the Read's failure, which
// comes back with the next Read of a folder: a lesson on its error.
// Before, any edit after a file tool's failure made it the task's, and
// nothing was learned. An edit of the very file the Read failed on (a
// Read refused for its size, then the file edited) is the task's still.
func TestALookRefusedThenOtherWork(t *testing.T) {
	for _, edited := range []string{"/home/ann/app/src/main.ts", "/home/ann/app/notes.md"} {
		dir := t.TempDir()
		writeClaude(t, dir, "/home/ann/app", "s1", []step{
			write("/home/ann/app/README.md", "# app\n"),
			call("Read", map[string]any{"file_path": "/home/ann/app/notes.md"}, true, "EISDIR: illegal operation on a directory, read"),
			run("ls -la /home/ann/app/notes.md", 0, "total 0\n-rw-r--r-- 1 ann ann 0 todo.md"),
			call("Edit", map[string]any{"file_path": edited, "old_string": "a", "new_string": "b"}, false, "The file "+edited+" has been updated."),
		})
		got := len(ofKind(candidatesOf(t, dir), KindError)) > 0
		if want := edited != "/home/ann/app/notes.md"; got != want {
			t.Errorf("edit of %s: a lesson on the Read's error: %v, want %v", edited, got, want)
		}
	}
}
