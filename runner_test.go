package lessons

import (
	"strings"
	"testing"
)

// prefixed sets every line of out off as a runner would: prefix(i) for
// line i.
func prefixed(out string, prefix func(i int) string) string {
	var b strings.Builder
	for i, l := range strings.Split(out, "\n") {
		b.WriteString(prefix(i) + l + "\n")
	}
	return b.String()
}

// One error under any monorepo runner is one class, and one error line:
// the package and task a runner sets each line off with are cut, however
// the runner shapes them, and whichever package printed it.
func TestErrorClassUnderARunnerPrefix(t *testing.T) {
	out := "bun test v1.2.0\n\nsrc/app.test.ts:\n\n# Unhandled error between tests\n-------------------------------\n" +
		"error: Cannot find module '@acme/core' from '/w/packages/app/src/app.test.ts'\n-------------------------------\n\n 0 pass\n 1 fail"
	tsc := "src/a.ts:3:8 - error TS2307: Cannot find module '@acme/util' or its corresponding type declarations.\n\n" +
		"3 import { x } from '@acme/util';\n         ~~~~~~~~~~~~\n\nFound 1 error in src/a.ts:3"
	lint := "Checked 12 files in 3ms.\nsrc/x.ts:4:1 lint/style/useConst\n  × This let declares a variable that is only assigned once.\n" +
		"    4 │ let a = 1\n      │ ^^^\nFound 1 error."
	runners := map[string]func(pkg string) func(int) string{
		"pkg:task: ": func(pkg string) func(int) string { return func(int) string { return pkg + ":test: " } },
		"pkg task: ": func(pkg string) func(int) string { return func(int) string { return pkg + " test: " } },
		"pkg task$ ": func(pkg string) func(int) string { return func(int) string { return pkg + " test$ " } },
		"svc  | ":    func(pkg string) func(int) string { return func(int) string { return "api-1  | " } },
		"coloured": func(pkg string) func(int) string {
			return func(int) string { return "\x1b[35m" + pkg + ":test: \x1b[0m" }
		},
		"interleaved": func(pkg string) func(int) string {
			return func(i int) string { return []string{pkg, "@acme/web"}[i%2] + ":build: " }
		},
	}
	for name, runner := range runners {
		for _, text := range []string{out, tsc, lint} {
			for _, pkg := range []string{"@acme/app", "packages/other", "@app.build/web"} {
				got := prefixed(text, runner(pkg))
				if c, want := ErrorClass(got), ErrorClass(text); c != want {
					t.Errorf("%s: ErrorClass(%q) = %q, want %q as without the runner", name, got, c, want)
				}
				line, _ := ErrorLine(got)
				want, _ := ErrorLine(text)
				if StripANSI(line) != want {
					t.Errorf("%s: ErrorLine(%q) = %q, want %q", name, got, line, want)
				}
			}
		}
	}
}

// A program's own "name: message" lines, a logger's levels, a
// compiler's file and line and a sentence of two words ("Would
// reformat:", whose first word is no package's lower-case name) are no
// runner's prefix: nothing is cut.
func TestErrorClassKeepsWhatIsNoRunnerPrefix(t *testing.T) {
	for _, text := range []string{
		"rg: a: No such file or directory (os error 2)\nrg: b: No such file or directory (os error 2)\nrg: c: No such file or directory (os error 2)",
		"INFO: starting\nINFO: loading config\nINFO: connecting\nERROR: connection refused by db",
		"src/a.go:3:1: undefined: Foo\nsrc/a.go:4:1: undefined: Bar\nsrc/a.go:5:1: undefined: Baz",
		"Error: no agent\nError: no agent\nError: no agent",
		"zsh:1: no matches found: *.txt\nzsh:1: no matches found: *.md\nzsh:1: no matches found: *.go",
		"modified: a\nmodified: b\nmodified: c\nfatal: could not apply abc",
		"Would reformat: src\\a.py\nWould reformat: src\\b.py\nWould reformat: tests\\c.py\n3 files would be reformatted",
	} {
		if got := TrimRunnerPrefixes(text); got != text {
			t.Errorf("TrimRunnerPrefixes(%q) = %q, want it unchanged", text, got)
		}
	}
}

func TestTrimRunnerPrefixes(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"@a/b:test: one\n@a/b:test: \n@a/b:test: error: two\n\nTasks: 1 failed", "one\n\nerror: two\n\nTasks: 1 failed"},
		{"\x1b[33m@a/b:lint: \x1b[0mx\n\x1b[33m@a/b:lint: \x1b[0my\n\x1b[33m@a/b:lint: \x1b[0m\x1b[31merror\x1b[0m: z\n",
			"\x1b[0mx\n\x1b[0my\n\x1b[0m\x1b[31merror\x1b[0m: z\n"},
		{"web-1  | started\nweb-1  | Error: EADDRINUSE\nweb-1  | exited", "started\nError: EADDRINUSE\nexited"},
		{"one line: only", "one line: only"},
	} {
		if got := TrimRunnerPrefixes(tt.text); got != tt.want {
			t.Errorf("TrimRunnerPrefixes(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// A caret under a quoted source line is no error line, behind a runner's
// prefix too.
func TestCaretLineBehindARunnerPrefix(t *testing.T) {
	text := "@a/b:build: src/x.ts:2:3 - error TS1005: ';' expected.\n@a/b:build: 2 let x = = 1\n@a/b:build:         ^\n"
	if line, _ := ErrorLine(text); !strings.Contains(line, "TS1005") {
		t.Errorf("ErrorLine(%q) = %q, want the TS1005 line", text, line)
	}
	for _, l := range []string{"@a/b:build:         ^", "pkg test:   ~~~^~~", "api-1  |    ^"} {
		if !CaretLine(l) {
			t.Errorf("CaretLine(%q) = false, want true", l)
		}
	}
}
