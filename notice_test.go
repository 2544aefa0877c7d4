package lessons

import "testing"

func TestNoticeLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"warning: unused variable `x`", true},
		{"[Parser] Warning: Could not parse evaluator response as JSON array", true},
		{"[Loader] Multi-file validation warning: Issue missing file reference", true},
		{"\x1b[33mWarning: Invalid workers in config.yaml\x1b[0m", true},
		{"[33mWarning: Invalid workers in config.yaml[0m", true},
		{"lib/a.py:24: note: (or run \"mypy --install-types\")", true},
		{"/usr/lib/x.py:3: DeprecationWarning: pkg is deprecated", true},
		{"@acme/core:test: (pass) parseFlags > throws UnknownFlagError for unknown flags [0.53ms]", true},
		{"(pass) cli > rejects an unknown argument [93ms]", true},
		{"✓ rejects invalid input (3 ms)", true},
		{"ok  \texample.com/pkg\t0.21s", true},
		{"PASS src/app.test.js", true},
		{".                                        |  WARN  Unsupported engine: wanted: {\"node\":\">=18\"}", true},
		{"WARNING: This is a development server.", true},
		{"Note that the build failed", false},
		{"error: warning treated as error", false},
		{"src/app.go:12:3: error: undefined: Foo", false},
		{"@acme/core:test: (fail) parseFlags > throws [0.5ms]", false},
		{"FAIL src/app.test.js", false},
		{"TypeError: x is not a function", false},
		{"npm ERR! missing script: lint", false},
		{"Found 3 errors.", false},
		{"fatal: not a git repository", false},
		{"Cannot find module 'left-pad' from 'src/index.ts'", false},
		{"File does not exist. Note: your current working directory is /repo.", false}, // a sentence, then a note: the sentence is the error
	} {
		if got := NoticeLine(tt.line); got != tt.want {
			t.Errorf("NoticeLine(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// A failure whose output opens with warnings and passing checks is about
// the line that failed: its class and error line come from it.
func TestErrorLineSkipsNotices(t *testing.T) {
	out := "[Parser] Warning: could not parse response, missing field\n" +
		"pkg:test: (pass) parser > throws UnknownFlagError for unknown flags [0.5ms]\n" +
		"pkg:test: (fail) planner > plans a rename [2ms]\n" +
		"error: expected 2 columns, got 3\n"
	if line, _ := ErrorLine(out); line != "pkg:test: (fail) planner > plans a rename [2ms]" {
		t.Errorf("ErrorLine = %q, want the failing check's line", line)
	}
	if got := ErrorClass("warning: deprecated option --foo\n"); got != "no output" {
		t.Errorf("ErrorClass(a warning only) = %q, want %q", got, "no output")
	}
}
