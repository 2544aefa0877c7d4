package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

func errorLessonsManifest(t testing.TB) *Manifest {
	return compileTest(t,
		lesson("no-module", lessons.Trigger{Errors: []string{`No module named '?(\w+)`}}),
		lesson("jest-watch", lessons.Trigger{Commands: []string{`\bnpm (run )?test\b`}, Errors: []string{`(?i)watch mode is not supported`}, Unless: []string{`--watchAll=false`}}),
		lesson("edit-unread", lessons.Trigger{Tools: []string{"Edit"}, Errors: []string{`File has not been read yet`}}),
		lesson("sql-path", lessons.Trigger{Paths: []string{"migrations/*.sql"}, Errors: []string{`relation "\w+" does not exist`}}),
		lesson("lookahead", lessons.Trigger{Errors: []string{`EADDRINUSE(?!.*:0\b)`}}),
		lesson("plain", lessons.Trigger{Commands: []string{`\bnpm test\b`}}),
	)
}

func TestMatchFailure(t *testing.T) {
	m := errorLessonsManifest(t)
	tests := []struct {
		call   Call
		output string
		want   []Hit
	}{
		{Call{Tool: "Bash", Command: "python app.py"}, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'", []Hit{{0, "errors"}}},
		{Call{Tool: "Read", Paths: []string{"/p/x.py"}}, "No module named yaml", []Hit{{0, "errors"}}}, // no tools: any tool
		{Call{Tool: "Bash", Command: "python app.py"}, "SyntaxError: invalid syntax", nil},
		{Call{Tool: "Bash", Command: "npm test"}, "Error: Watch mode is not supported in this environment", []Hit{{1, "errors+commands"}}},
		{Call{Tool: "Bash", Command: "npm test -- --watchAll=false"}, "watch mode is not supported", nil}, // unless
		{Call{Tool: "Bash", Command: "yarn jest"}, "watch mode is not supported", nil},                    // commands must match
		{Call{Tool: "Edit", Paths: []string{"/p/a.go"}}, "File has not been read yet. Read it first.", []Hit{{2, "errors"}}},
		{Call{Tool: "Write", Paths: []string{"/p/a.go"}}, "File has not been read yet. Read it first.", nil}, // tools
		{Call{Tool: "Write", Paths: []string{"/p/migrations/1.sql"}}, `ERROR: relation "users" does not exist`, []Hit{{3, "errors+paths"}}},
		{Call{Tool: "Bash", Command: "psql -f x.sql"}, `ERROR: relation "users" does not exist`, nil}, // paths imply the file tools
		{Call{Tool: "Bash", Command: "node server.js"}, "Error: listen EADDRINUSE: address already in use :::3000", []Hit{{4, "errors"}}},
		{Call{Tool: "Bash", Command: "node server.js"}, "Error: listen EADDRINUSE :0", nil},
		{Call{Tool: "Bash", Command: "npm test"}, "", nil},
	}
	for _, tt := range tests {
		var mt Matcher
		got, err := mt.MatchFailure(m, tt.call, tt.output)
		if err != nil {
			t.Fatalf("MatchFailure(%+v, %q): %v", tt.call, tt.output, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("MatchFailure(%+v, %q) = %v, want %v", tt.call, tt.output, got, tt.want)
		}
	}
}

// TestErrorLessonsNeverBeforeACall: a lesson on an error is in no index a
// call, a prompt or a session start reads, whatever else it says.
func TestErrorLessonsNeverBeforeACall(t *testing.T) {
	l := lesson("npm-on-error", lessons.Trigger{Commands: []string{`\bnpm test\b`}, Errors: []string{`ERR!`},
		Keywords: []string{"npm", "test"}, SessionStart: true})
	l.Tags = []string{"tool:npm"}
	l.Block = true
	mg := merged(l, lesson("npm-plain", lessons.Trigger{Commands: []string{`\bnpm test\b`}}))
	mg.Config.AggregateMinLessons = 1
	m, err := Compile(mg, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	var mt Matcher
	hits, err := mt.Match(m, Call{Tool: "Bash", Command: "npm test"})
	if err != nil || len(hits) != 1 || hits[0].Index != 1 {
		t.Errorf("Match(npm test) = %v, %v; want only npm-plain", hits, err)
	}
	if idx, _ := m.SessionStart(); len(idx) != 0 {
		t.Errorf("SessionStart = %v, want none", idx)
	}
	scored, _ := m.Relevant("how do I run npm test", 0, 10)
	for _, s := range scored {
		if s.Index == 0 {
			t.Errorf("Relevant returned the lesson on an error: %v", scored)
		}
	}
	aggs, _ := m.Aggregates()
	for _, a := range aggs {
		if len(a.Members) > 0 && a.Members[0] == 0 {
			t.Errorf("aggregate %s holds the lesson on an error", a.Tool)
		}
	}
	if e, _ := m.Entry(0); e.Block || e.SessionStart {
		t.Errorf("entry = %+v: a lesson on an error neither blocks nor starts a session", e)
	}
	hits, err = mt.MatchFailure(m, Call{Tool: "Bash", Command: "npm test"}, "npm ERR! missing script: test")
	if err != nil || len(hits) != 1 || hits[0].Index != 0 {
		t.Errorf("MatchFailure = %v, %v; want the lesson on an error", hits, err)
	}
}

// TestMatchFailurePrefilterAgrees proves the prefilters of error patterns
// never lose a match: the prefiltered and brute-force matchers agree on
// many outputs.
func TestMatchFailurePrefilterAgrees(t *testing.T) {
	m := errorLessonsManifest(t)
	words := []string{"No module named", "'yaml'", "watch mode", "Watch Mode", "is not supported", "File has not been read yet",
		`relation "t" does not exist`, "EADDRINUSE", ":0", ":3000", "error", "\n", " "}
	calls := []Call{{Tool: "Bash", Command: "npm test"}, {Tool: "Bash", Command: "python x.py"}, {Tool: "Edit", Paths: []string{"/p/a"}},
		{Tool: "Write", Paths: []string{"/p/migrations/2.sql"}}}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		c := calls[rng.IntN(len(calls))]
		var fast, brute Matcher
		brute.Brute = true
		a, errA := fast.MatchFailure(m, c, b.String())
		z, errZ := brute.MatchFailure(m, c, b.String())
		if errA != nil || errZ != nil || !reflect.DeepEqual(a, z) {
			t.Fatalf("on %+v %q: prefiltered %v (%v), brute %v (%v)", c, b.String(), a, errA, z, errZ)
		}
	}
}

func TestMatchLessonError(t *testing.T) {
	l := lesson("no-module", lessons.Trigger{Commands: []string{`^python3? `}, Errors: []string{`No module named`}})
	tests := []struct {
		call lessons.ToolCall
		want bool
	}{
		{lessons.ToolCall{Command: "python app.py", Error: "ModuleNotFoundError: No module named 'yaml'"}, true},
		{lessons.ToolCall{Command: "python app.py"}, false}, // no error: before the call, where it never comes
		{lessons.ToolCall{Command: "python app.py", Error: "SyntaxError"}, false},
		{lessons.ToolCall{Command: "node app.js", Error: "No module named x"}, false},
	}
	for _, tt := range tests {
		got, err := MatchLesson(&l, tt.call)
		if err != nil || got != tt.want {
			t.Errorf("MatchLesson(%+v) = %v, %v; want %v", tt.call, got, err, tt.want)
		}
	}
	bad := lesson("bad", lessons.Trigger{Errors: []string{`(`}})
	if _, err := MatchLesson(&bad, lessons.ToolCall{Command: "x", Error: "y"}); err == nil {
		t.Error("MatchLesson with an invalid error pattern: no error")
	}
}

func TestFailureText(t *testing.T) {
	short := "boom"
	if got := FailureText(short); got != short {
		t.Errorf("FailureText(%q) = %q", short, got)
	}
	long := "HEAD " + strings.Repeat("é", maxFailureText) + " TAIL"
	got := FailureText(long)
	if len(got) > maxFailureText+len("\n[…]\n") || !strings.HasPrefix(got, "HEAD ") || !strings.HasSuffix(got, " TAIL") {
		t.Errorf("FailureText of %d bytes: %d bytes, %q…%q", len(long), len(got), got[:10], got[len(got)-10:])
	}
	if !strings.Contains(got, "\n[…]\n") || !isValidUTF8(got) {
		t.Errorf("FailureText cut a rune or lost the mark")
	}
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func BenchmarkMatchFailure(b *testing.B) {
	ls := syntheticLessons(1000)
	ls = append(ls, syntheticErrorLessons(100)...)
	m, err := Compile(merged(ls...), scope.Stamp{}) // aggregates warn: too big
	if err != nil {
		b.Fatal(err)
	}
	output := "Traceback (most recent call last):\n" + strings.Repeat("  File \"x.py\", line 1, in f\n", 40) + "KeyError: 'user'"
	for b.Loop() {
		var mt Matcher
		if _, err := mt.MatchFailure(m, Call{Tool: "Bash", Command: "python x.py"}, output); err != nil {
			b.Fatal(err)
		}
	}
}

// syntheticErrorLessons makes n lessons on an error, shaped like what a
// scanner writes: an error class, some with the command family too.
func syntheticErrorLessons(n int) []lessons.Lesson {
	classes := []string{"ModuleNotFoundError: No module named", "EADDRINUSE", "relation \\S+ does not exist", "permission denied",
		"npm ERR! missing script", "error\\[E\\d+\\]", "cannot find module", "fatal: not a git repository"}
	out := make([]lessons.Lesson, n)
	for i := range out {
		t := lessons.Trigger{Errors: []string{fmt.Sprintf(`%s.*case%d\b`, classes[i%len(classes)], i)}}
		if i%2 == 0 {
			t.Commands = []string{fmt.Sprintf(`\btool%d\b`, i)}
		}
		out[i] = lesson(fmt.Sprintf("error-lesson-%03d", i), t)
	}
	return out
}
