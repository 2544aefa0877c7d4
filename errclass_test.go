package lessons

import (
	"strings"
	"testing"
)

func TestErrorClass(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"Exit code 1\nTraceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    d['k']\nKeyError: 'k'", "KeyError"},
		{"Traceback (most recent call last):\n  File \"/a/b.py\", line 9\nrequests.exceptions.ConnectionError: boom", "requests.exceptions.ConnectionError"},
		{"Exit code 127\n/bin/bash: line 1: rgx: command not found", "command not found: rgx"},
		{"zsh: command not found: poetry", "command not found: poetry"},
		{"Exit code 1\nTraceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'", "No module named yaml"},
		{"Error: Cannot find module './util'\nRequire stack:", "Cannot find module ./util"},
		{"TypeError: x.map is not a function\n    at f (/a/b.js:3:9)", "TypeError"},
		{"cat: /tmp/nope.txt: No such file or directory", "missing path"},
		{"Command timed out after 2m 0.0s", "timeout"},
		{"error: unknown option `--frobnicate'\nusage: git log", "usage"},
		{"interrupted by the user", "interrupted"},
		{"", "no output"},
		{"Exit code 1", "no output"},
		{"Exit code 1\nsrc/app.go:12:3: undefined: Foo", "<path>: undefined: Foo"},
		{"Exit code 1\nsrc/other.go:99:1: undefined: Foo", "<path>: undefined: Foo"},
		{"error[E0308]: mismatched types at commit 3f2a9c1d", "error[EN]: mismatched types at commit <hash>"},
		{"npm ERR! Missing script: \"lint\"", "npm ERR! Missing script: <q>"},
		{"error: unknown `frob' in `x.c'", "error: unknown <q> in <q>"},
		{"fatal: a defaced branch 'feat/x' already exists", "fatal: a defaced branch <q> already exists"},
	} {
		if got := ErrorClass(tt.text); got != tt.want {
			t.Errorf("ErrorClass(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	long := "Traceback (most recent call last):\n" + strings.Repeat("  File \"a.py\", line 1, in f\n    f()\n", 200) +
		"RecursionError: maximum recursion depth exceeded"
	for _, tt := range []struct{ text, want string }{{long, "RecursionError"}} {
		if got := ErrorClass(tt.text); got != tt.want {
			t.Errorf("ErrorClass(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
