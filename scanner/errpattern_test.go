package scanner

import (
	"strings"
	"testing"
	"unicode"

	"github.com/lessons-dev/lessons"
)

// TestErrorPatternMatchesTheNextOccurrence: a pattern made of one
// occurrence of an error matches the same error the next time, when it
// names another file, folder or URL or quotes another value, in any of
// the usual quote styles; it does not match another error.
func TestErrorPatternMatchesTheNextOccurrence(t *testing.T) {
	for _, tt := range []struct {
		line, again, other string
	}{
		// a relative path, a path from here, a home path
		{"error: cannot open src/app/main: Is a directory", "error: cannot open lib/util: Is a directory", "error: cannot open src/app/main: Permission denied"},
		{"tar: ./dist: Cannot stat: No such file or directory", "tar: ../out/web: Cannot stat: No such file or directory", "tar: ./dist: Cannot open: Is a directory"},
		{"Error: ~/notes is not a git repository", "Error: ~/work/site is not a git repository", "Error: ~/notes is not a directory"},
		// a file name, with or without its line and column
		{"Error: config.yaml is not valid YAML", "Error: settings.yml is not valid YAML", "Error: config.yaml is not readable"},
		{"lint failed at main.go:12:3 with unused import", "lint failed at server.go:88:14 with unused import", "lint failed at main.go:12:3 with missing return"},
		{"cannot read .env before the build", "cannot read .npmrc before the build", "cannot write .env before the build"},
		// a URL
		{"Error: request to https://api.example failed with status Bad Gateway", "Error: request to http://localhost/v2/items failed with status Bad Gateway",
			"Error: request to https://api.example failed with status Not Found"},
		// quoted, in every style, and a value of several words
		{"Error: unknown option ‘--verbose’ for this command", "Error: unknown option ‘--dry-run’ for this command", "Error: missing option ‘--verbose’ for this command"},
		{"Error: unknown option “--verbose” for this command", "Error: unknown option “--all” for this command", "Error: missing option “--verbose” for this command"},
		{"Error: unknown option «--verbose» for this command", "Error: unknown option «--all» for this command", "Error: missing option «--verbose» for this command"},
		{"make: unknown target `deploy' in this directory", "make: unknown target `build-all' in this directory", "make: missing target `deploy' in this directory"},
		{"error: pathspec 'my notes.md' did not match any file known to git", "error: pathspec 'todo.md' did not match any file known to git",
			"error: pathspec 'todo.md' is beyond a symbolic link"},
		{"error: pathspec 'todo.md' did not match any file known to git", "error: pathspec 'my notes.md' did not match any file known to git",
			"error: pathspec 'todo.md' is beyond a symbolic link"},
		{`Error: no field name="cart total" in the schema`, `Error: no field name="id" in the schema`, `Error: no table name="id" in the schema`},
		// a linter's rule is its name, not a path: the same rule in
		// another file, not another rule
		{"src/cart.ts:3:1 lint/style/useConst  FIXABLE", "src/order.ts:9:5 lint/style/useConst  FIXABLE", "src/cart.ts:3:1 lint/suspicious/noExplicitAny  FIXABLE"},
		{"warning in src/App.tsx: react-hooks/exhaustive-deps is violated", "warning in src/List.tsx: react-hooks/exhaustive-deps is violated",
			"warning in src/App.tsx: react-hooks/rules-of-hooks is violated"},
	} {
		p := errorPattern(tt.line)
		if p == "" {
			t.Errorf("errorPattern(%q) = \"\", want a pattern", tt.line)
			continue
		}
		re, err := lessons.CompilePattern(p)
		if err != nil {
			t.Fatalf("errorPattern(%q) = %q: %v", tt.line, p, err)
		}
		for _, c := range []struct {
			text string
			want bool
		}{{tt.line, true}, {tt.again, true}, {tt.other, false}} {
			if got, _ := re.MatchString(c.text); got != c.want {
				t.Errorf("errorPattern(%q) = %q on %q: %v, want %v", tt.line, p, c.text, got, c.want)
			}
		}
	}
}

// TestErrorPatternKeepsEnoughWords: a line that is mostly paths and
// quoted values gives no pattern; an apostrophe is no quote, and a
// quoted message keeps its words.
func TestErrorPatternKeepsEnoughWords(t *testing.T) {
	for _, tt := range []struct {
		line string
		want string
	}{
		{"src/a.ts: 'x' ./b", ""},
		{"at 'x': src/b.json ./c", ""},
		{"Error: can't reach the build server", `Error:\s+\S+\s+reach\s+the\s+build\s+server`},
		{`Error: "the build server went away while it ran"`, `Error:\s+\S+\s+build\s+server\s+went\s+away\s+while\s+it\s+\S+`},
	} {
		if got := errorPattern(tt.line); got != tt.want {
			t.Errorf("errorPattern(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// TestSubjectPatternMasksTheSubject: the one word after the last colon
// is the name of what was missing, quoted or not.
func TestSubjectPatternMasksTheSubject(t *testing.T) {
	for _, tt := range []struct{ line, again string }{
		{"no such table: shop_order", "no such table: cart"},
		{"Unknown skill: 'deploy'", "Unknown skill: 'ship it'"},
	} {
		p := subjectPattern(tt.line)
		re, err := lessons.CompilePattern(p)
		if err != nil {
			t.Fatalf("subjectPattern(%q) = %q: %v", tt.line, p, err)
		}
		for _, s := range []string{tt.line, tt.again} {
			if ok, _ := re.MatchString(s); !ok {
				t.Errorf("subjectPattern(%q) = %q misses %q", tt.line, p, s)
			}
		}
	}
}

// TestSubjectPatternWhatVaries: after a severity label alone ("error:
// externally-managed-environment") the word is the error's name, not a
// subject: the pattern keeps it, and another error under the same label
// does not match. A branch's name is one session's, whatever its shape
// (fix/login-form reads as a lint rule's name): the same error on
// another branch matches.
func TestSubjectPatternWhatVaries(t *testing.T) {
	for _, tt := range []struct{ line, same, other string }{
		{"error: externally-managed-environment", "error: externally-managed-environment", "error: subprocess-exited-with-error"},
		{"fatal: The current branch fix/login-form has no upstream branch.", "fatal: The current branch feat/add-search has no upstream branch.", ""},
	} {
		p := subjectPattern(tt.line)
		re, err := lessons.CompilePattern(p)
		if p == "" || err != nil {
			t.Fatalf("subjectPattern(%q) = %q (%v)", tt.line, p, err)
		}
		for _, s := range []string{tt.line, tt.same} {
			if ok, _ := re.MatchString(s); !ok {
				t.Errorf("subjectPattern(%q) = %q misses %q", tt.line, p, s)
			}
		}
		if ok, _ := re.MatchString(tt.other); tt.other != "" && ok {
			t.Errorf("subjectPattern(%q) = %q matches another error, %q", tt.line, p, tt.other)
		}
	}
}

// TestErrorPatternOfAColouredLine: the colour codes of a line the hook
// sees printed are in its pattern as escapes, not as control characters.
func TestErrorPatternOfAColouredLine(t *testing.T) {
	line := "error: lockfile \x1b[1mfrozen\x1b[0m, refusing to update it"
	p := errorPattern(line)
	if p == "" || strings.ContainsFunc(p, unicode.IsControl) || !strings.Contains(p, "frozen") {
		t.Errorf("errorPattern(%q) = %q: want the words, and no control character", line, p)
	}
	re, err := lessons.CompilePattern(p)
	if err != nil {
		t.Fatalf("errorPattern(%q) = %q: %v", line, p, err)
	}
	if ok, _ := re.MatchString(line); !ok {
		t.Errorf("errorPattern(%q) = %q misses its line", line, p)
	}
}

// TestErrorLessonForTheProgram: `go build ./e2e/...` from a folder that
// is no module fails, and from inside it works. The lesson on the error
// says to run the command from inside the folder the error names, and
// speaks after the same error from any go command, whatever folder it
// names: the folder is the call's own value, and the error is the
// program's, not the subcommand's. Before, nothing was learned from the
// retry, and a lesson on the error held the folder and `go build`.
func TestErrorLessonForTheProgram(t *testing.T) {
	dir := t.TempDir()
	writeClaude(t, dir, "/repo", "s1", []step{
		run("go build ./e2e/...", 1, "pattern ./e2e/...: directory prefix e2e does not contain main module or its selected dependencies"),
		run("cd e2e && go build ./...", 0, ""),
	})
	state := t.TempDir()
	scan(t, state, Options{Paths: []string{dir}})
	var found bool
	for _, c := range candidates(t, state) {
		if len(c.Triggers.Errors) == 0 {
			continue
		}
		found = true
		if !strings.Contains(c.Solution, "`cd e2e && go build ./...`") || !strings.Contains(c.Solution, "from inside the folder the error names") {
			t.Errorf("solution %q: want the way it worked, and the rule for any folder", c.Solution)
		}
		if !commandFires(c.Triggers, "go test ./...") ||
			!errorFires(t, c, "pattern ./...: directory prefix . does not contain main module or its selected dependencies") {
			t.Errorf("triggers %+v: want them to fire after go test meets the error for another folder", c.Triggers)
		}
		if commandFires(c.Triggers, "cargo build") {
			t.Errorf("triggers %+v fire after another program", c.Triggers)
		}
	}
	if !found {
		t.Fatal("no lesson on the error")
	}
}

// TestCallPatternMasksPassedWords: the words a command passed are masked
// in its error's pattern, the error's own words are not.
func TestCallPatternMasksPassedWords(t *testing.T) {
	p := callPattern("error: no test target named `parser_fuzz` in package shop", "cargo test --test parser_fuzz", "test")
	re, err := lessons.CompilePattern(p)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]bool{
		"error: no test target named `lexer` in package shop":  true,
		"error: no bench target named `lexer` in package shop": false,
	} {
		if got, _ := re.MatchString(text); got != want {
			t.Errorf("%q on %q: %v, want %v", p, text, got, want)
		}
	}
	if p := callPattern("directory prefix e2e does not contain main module", "go vet ./e2e/...", "vet"); strings.Contains(p, "e2e") || strings.Contains(p, `e\d+e`) {
		t.Errorf("pattern %q keeps the folder the command passed", p)
	}
}

// TestMovedInto: a command run from inside the folder its paths named.
func TestMovedInto(t *testing.T) {
	for _, tc := range []struct {
		failed, fixed, dir string
		want               bool
	}{
		{"go build ./e2e/...", "go build ./...", "e2e", true},
		{"go vet ./e2e/...", "go vet ./...", "/Users/me/repo/e2e", true},
		{"cargo test --manifest-path crates/core/Cargo.toml", "cargo test --manifest-path Cargo.toml", "crates/core", true},
		{"npm test ./web", "npm test .", "web", true},
		{"go build ./e2e/...", "go build ./...", "api", false},
		{"go build ./e2e/...", "go build ./... -v", "e2e", false},
		{"go build ./...", "go build ./...", "e2e", false}, // nothing moved: the same command in another folder
	} {
		if got := movedInto(tc.failed, tc.fixed, tc.dir); got != tc.want {
			t.Errorf("movedInto(%q, %q, %q) = %v, want %v", tc.failed, tc.fixed, tc.dir, got, tc.want)
		}
	}
	if containsWord("go build", "") {
		t.Error("an empty word is in every text")
	}
}

// TestErrorNamedAfterItsLabel: an error whose line is a severity label
// and a name ("error: externally-managed-environment") that no retry got
// past, after the session had changed a file (no known failure), is a
// lesson on that error, triggered by that name.
func TestErrorNamedAfterItsLabel(t *testing.T) {
	dir := t.TempDir()
	out := "error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python packages system-wide, try brew install xyz"
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		write("/home/ann/app/conf.yml", "model: x\n"),
		run("pip3 install pyyaml", 1, out),
		run("ls", 0, "app.py"),
	})
	var found *Candidate
	cs := candidatesOf(t, dir)
	for i, c := range cs {
		if c.Kind == KindError && strings.Contains(strings.Join(c.Triggers.Errors, " "), "externally") {
			found = &cs[i]
		}
	}
	if found == nil {
		t.Fatalf("no lesson on the error among %q", summaries(cs))
	}
}
