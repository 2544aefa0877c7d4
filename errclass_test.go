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
		// a location in a file named without its folder, in any language, is where, not what
		{"src/a.zig:3:5: error: use of undeclared identifier 'foo'", "<path>: error: use of undeclared identifier <q>"},
		{"main.zig:3:5: error: use of undeclared identifier 'bar'", "<path>: error: use of undeclared identifier <q>"},
		{"Program.cs(12,5): error CS0246: The type or namespace name 'Foo' could not be found", "<path>: error CSN: The type or namespace name <q> could not be found"},
		{"Main.hs:3:8: error: [GHC-88464]", "<path>: error: [GHC-N]"},
		{"Could not find file 'C:\\w\\app\\appsettings.json'.", "missing path"},
		{"Unhandled exception. Could not find a part of the path '/w/out/a.txt'.", "missing path"},
		{"src/a.ts(3,5): error TS2304: Cannot find name 'foo'.", "<path>: error TSN: Cannot find name <q>."},
		// an apostrophe inside a word opens no quote
		{"lib/a.dart:4:9: Error: The getter 'foo' isn't defined for the class 'Bar'.", "<path>: Error: The getter <q> isn’t defined for the class <q>."},
		// the same, in Ubuntu's command-not-found handler's, cmd.exe's and PowerShell's words
		{"Command 'docker-compose' not found, but can be installed with:\n\nsudo apt install docker-compose", "command not found: docker-compose"},
		{"'rg' is not recognized as an internal or external command,\noperable program or batch file.", "command not found: rg"},
		{"rg : The term 'rg' is not recognized as the name of a cmdlet, function, script file, or operable program.", "command not found: rg"},
		{"Exit code 1\nTraceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'", "No module named yaml"},
		{"Error: Cannot find module './util'\nRequire stack:", "Cannot find module ./util"},
		// a bundler's wording of the same (webpack, under Next.js)
		{"Failed to compile.\nModule not found: Can't resolve 'uuid' in '/home/a/app/src/lib'\n> Build failed because of webpack errors", "Cannot find module uuid"},
		{"TypeError: x.map is not a function\n    at f (/a/b.js:3:9)", "TypeError"},
		{"cat: /tmp/nope.txt: No such file or directory", "missing path"},
		{"File does not exist. Note: your current working directory is /Users/me/shop.", "missing path"}, // Claude Code's Read
		{"File not found: /Users/me/shop/README.md", "missing path"},                                     // opencode's read
		{"Command timed out after 2m 0.0s", "timeout"},
		{"shell tool terminated command after exceeding timeout 120000 ms. If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds.", "timeout"}, // opencode 1.18
		{"error: unknown option `--frobnicate'\nusage: git log", "usage"},
		{"interrupted by the user", "interrupted"},
		{"", "no output"},
		{"/home/me/.claude/shell-snapshots/snapshot-zsh-1-a.sh: line 9: alias: --: not found\n/bin/bash: line 1: mgrep: command not found", "command not found: mgrep"},
		{"/c/Users/ann/.bashrc: line 1: gh: command not found\n/usr/bin/bash: line 1: copy: command not found", "command not found: copy"},
		{"Command timed out after 2m 0.0s /home/ann/.bashrc: line 1: gh: command not found", "timeout"},
		{"Command timed out after 2m 0.0s ⚠ Attempted to load @next/swc-darwin-arm64, but it was not installed", "timeout"},
		{"/home/ann/miniconda3/etc/profile.d/conda.sh:48: parse error near `()'\nModuleNotFoundError: No module named 'torch'", "No module named torch"},
		{"/Users/ann/.zshrc:12: command not found: pyenv", "no output"},
		{"/Users/ann/dotfiles/zsh/.zshrc:12: command not found: pyenv", "command not found: pyenv"},
		{"Exit code 1", "no output"},
		{"Exit code 1\nsrc/app.go:12:3: undefined: Foo", "<path>: undefined: Foo"},
		{"Exit code 1\nsrc/other.go:99:1: undefined: Foo", "<path>: undefined: Foo"},
		{"error[E0308]: mismatched types at commit 3f2a9c1d", "error[EN]: mismatched types at commit <hash>"},
		{"npm ERR! Missing script: \"lint\"", "npm ERR! Missing script: <q>"},
		{"error: unknown `frob' in `x.c'", "error: unknown <q> in <q>"},
		{"fatal: a defaced branch 'feat/x' already exists", "fatal: a defaced branch <q> already exists"},
		// a compiler's excerpt of the source is no error: Elixir's under a
		// warning (the warning skipped), Nix's, Rust's gutters
		{"warning: variable \"errors\" is unused\n    │\n 42 │   defp format_errors(errors) do\n    │                      ~~~~~~\n    │\n    └─ lib/app/event_controller.ex:42:22: App.EventController.format_errors/1\n\n** (Mix) Could not start application app: exited in: App.Application.start(:normal, [])\n    ** (EXIT) shutdown: failed to start child: AppWeb.Endpoint",
			"** (EXIT) shutdown: failed to start child: AppWeb.Endpoint"},
		{"error:\n       … while evaluating the attribute 'value'\n       at /nix/store/abc-source/lib/modules.nix:809:9:\n          808|     in warnDeprecation opt //\n          809|       { value = addErrorContext \"while evaluating the option\" value;\n             |         ^\n       error: attribute 'zsh' missing",
			"error: attribute <q> missing"},
		// text inside a box is the message (Rich's errors)
		{"╭─────────────────────────╮\n│ No such option: --frob  │\n╰─────────────────────────╯", "│ No such option: --frob │"},
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

// A runner's status line ("[lint] ERROR task failed") is the same for
// every mistake made under it: the class is the line the tool printed.
func TestErrorClassUnderAWrapper(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"Exit code 1\n[lint] $ golangci-lint run ./...\ncmd/x/actions.go:269:14: use of `os.Getwd` forbidden (forbidigo)\n1 issues:\n[lint] ERROR task failed",
			"<path>: use of <q> forbidden (forbidigo)"},
		{"[check:types] ERROR task failed", "[check:types] ERROR task failed"},
		{"cc -c x.c\nx.c:3:1: error: expected ';' before '}' token\nmake: *** [Makefile:9: build] Error 1", "<path>: error: expected <q> before <q> token"},
		{"> app@1.0.0 test\n> jest\nFAIL src/a.test.js\n  TypeError: a is not a function\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 1", "TypeError"},
		{"npm ERR! code ELIFECYCLE\nnpm ERR! Missing script: \"lint\"", "npm ERR! Missing script: <q>"},
		{"warning: unused import\nerror: could not compile `app` due to previous error\nerror: Recipe `build` failed on line 4 with exit code 101",
			"error: could not compile <q> due to previous error"},
		{"src/a.ts(3,1): error TS2304: Cannot find name 'x'.\n ELIFECYCLE  Command failed with exit code 2.", "<path>: error TSN: Cannot find name <q>."},
		{"task: Failed to run task \"lint\": exit status 1", "task: Failed to run task <q>: exit status N"},
		{"Error: Process completed with exit code 2.", "Error: Process completed with exit code N."},
		{"--- FAIL: TestParse (0.00s)\nFAIL\tgithub.com/a/b\t0.01s", "--- FAIL: TestParse (Ns)"},
		// a test runner's heading over the error it prints under it
		{"bun test v1.2.0\n\n# Unhandled error between tests\n-------\nerror: Missing DB_URL or DB_HOST\n-------\n 0 pass\n 1 fail\n 1 error",
			"error: Missing DB_URL or DB_HOST"},
		{"# Unhandled error between tests\n 1 fail", "# Unhandled error between tests"},
		// a check that fails on its warnings, under a runner that only
		// says the script failed: the last warning says why
		{"$ prettier --check .\n[warn] src/form.tsx\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.\nerror: script \"lint\" exited with code 1",
			"[warn] Code style issues found in the above file."},
		{"$ bun --filter '*' lint\nerror: script \"lint\" exited with code 1\n\n@app/web lint: Checking formatting...\n@app/web lint: [warn] src/a.tsx\n@app/core lint: All matched files use Prettier code style!\n" +
			"@app/web lint: [warn] Code style issues found in the above file. Forgot to run Prettier?\n@app/web lint: Exited with code 1\n@app/core lint: Exited with code 0",
			"[warn] Code style issues found in the above file."},
		// Gradle's report under its header: the cause it gives, or the
		// compiler's line where the cause only points at it
		{"FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':core:test'.\n> No tests found for given includes: [ParserTests.testEmpty](--tests filter)\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 1s\n> Task :core:test FAILED",
			"No tests found for given includes: [ParserTests.testEmpty](--tests filter)"},
		{"FAILURE: Build failed with an exception.\n\n* What went wrong:\nCould not determine the dependencies of task ':app:bootJar'.\n\n* Try:\n> Run with --info option.",
			"Could not determine the dependencies of task <q>."},
		{"FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:compileJava'.\n> Compilation failed; see the compiler error output for details.\n\n* Try:\n> Run with --info option.\n\n> Task :app:compileJava\nsrc/main/java/A.java:3: error: cannot find symbol",
			"<path>: error: cannot find symbol"},
	} {
		if got := ErrorClass(tt.text); got != tt.want {
			t.Errorf("ErrorClass(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestErrorLine(t *testing.T) {
	for _, tt := range []struct {
		text, line string
		wrapper    bool
	}{
		{"Exit code 1\n[lint] $ golangci-lint run\nx.go:3:1: undefined: Foo (typecheck)\n[lint] ERROR task failed", "x.go:3:1: undefined: Foo (typecheck)", false},
		{"[lint] ERROR task failed", "[lint] ERROR task failed", true},
		{"Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'k'", "KeyError: 'k'", false},
		{"cat: /tmp/x: No such file or directory", "cat: /tmp/x: No such file or directory", false},
		// Claude Code's timeout note, with the command's first line glued
		// to it: the note is the error line (the class's), whatever the
		// command printed before it was stopped
		{"Command timed out after 2m 0.0s ⚠ Attempted to load @next/swc-darwin-arm64, but it was not installed\n  ▲ Next.js 14.2.3", "Command timed out", false},
		{"Command timed out after 10s ⚠ Attempted to load @next/swc, but an error occurred: dlopen failed\n  ▲ Next.js 14.2.3", "Command timed out", false},
		// a check runner's passing and skipped checks are not its failure
		{"check for merge conflicts................................................Passed\ncheck xml............................................(no files to check)Skipped\ndon't commit to branch...................................................Failed\n- hook id: no-commit-to-branch\n- exit code: 1",
			"don't commit to branch...................................................Failed", false},
		// Claude Code's shell snapshot, sourced before every command, is
		// no part of the command's error
		{"Exit code 1\n/Users/me/.claude/shell-snapshots/snapshot-bash-1771171448608-qx2zaj.sh: line 192: alias: --: not found\nerror: failed to push some refs to 'origin'",
			"error: failed to push some refs to 'origin'", false},
		// a quoted source line with a caret under it is not the error
		{"node:events:486\n      throw er; // Unhandled 'error' event\n      ^\n\nError: listen EPERM: operation not permitted 127.0.0.1\n    at Server.setupListenHandle (node:net:1926:21)",
			"Error: listen EPERM: operation not permitted 127.0.0.1", false},
		{"At line:2 char:559\r\n+ ... tosave' } | Select-Object FullName } } | Sort-Ob ...\r\n+                                  ~\r\nAn empty pipe element is not allowed.\r\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\r\n    + FullyQualifiedErrorId : EmptyPipeElement",
			"An empty pipe element is not allowed.", false},
		{"", "", false},
		// opencode's placeholder for no output is no error line; the
		// agent's note that the call ran out of time is
		{"(no output)\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 30000 ms. If this command is expected to take longer, retry with a larger timeout value in milliseconds.\n</bash_metadata>",
			"bash tool terminated command after exceeding timeout 30000 ms. If this command is expected to take longer, retry with a larger timeout value in milliseconds.", false},
		// a test's own timeout under its runner's count: the line the
		// class (timeout) was read from, not how many tests failed
		{"  19 passing (7s)\n  1 failing\n\n  1) Workspace Probe\n       reports the workspace:\n     Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure \"done()\" is called.\n ELIFECYCLE  Test failed.",
			"Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure \"done()\" is called.", false},
	} {
		line, wrapper := ErrorLine(tt.text)
		if line != tt.line || wrapper != tt.wrapper {
			t.Errorf("ErrorLine(%q) = %q, %v; want %q, %v", tt.text, line, wrapper, tt.line, tt.wrapper)
		}
	}
}

// TestErrorClassWithoutColours: a test runner's coloured report and the
// same report piped without colours are one class, and a line of colour
// codes alone is no error line; ErrorLine keeps the codes, as the hook
// matches the output as printed.
func TestErrorClassWithoutColours(t *testing.T) {
	plain := "FAIL  src/a.test.ts > adds\nAssertionError: expected 3 to be 4"
	coloured := "\x1b[31m\x1b[1m \x1b[22m\x1b[39m\n\x1b(B\x1b[m\x1b[41m\x1b[1m FAIL \x1b[22m\x1b[49m src/a.test.ts > adds\n\x1b[31mAssertionError: expected 3 to be 4\x1b[39m"
	if got, want := ErrorClass(coloured), ErrorClass(plain); got != want {
		t.Errorf("coloured class %q, plain %q", got, want)
	}
	runner := "\x1b[2m⎯⎯⎯\x1b[22m\x1b[31m\x1b[1m Failed Suites 1 \x1b[22m\x1b[39m"
	if got := ErrorClass(runner); got != "⎯⎯⎯ Failed Suites N" {
		t.Errorf("class %q, want the line without its colour codes", got)
	}
	if line, _ := ErrorLine(coloured); !strings.Contains(line, "\x1b[") {
		t.Errorf("ErrorLine %q lost the codes the hook will match", line)
	}
}

// TestErrorClassSkipsPassingTests: a verbose test run reports each test
// that passed before the one that failed; a passing test whose name
// holds an error word is not the failure.
func TestErrorClassSkipsPassingTests(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"running 3 tests\ntest auth::sign_rejects_invalid_secret ... ok\ntest config::loads_env ... FAILED\n\nfailures:\n\n---- config::loads_env stdout ----\nthread 'config::loads_env' panicked at src/config.rs:40:9:\nassertion failed: cfg.is_ok()",
			"test config::loads_env ... FAILED"},
		{"tests/test_run.py::test_no_error PASSED [ 50%]\ntests/test_run.py::test_retry FAILED [100%]",
			"<path>::test_retry FAILED [N%]"},
	} {
		if got := ErrorClass(c.out); got != c.want {
			t.Errorf("ErrorClass(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}

// The same mistake read twice gets one class: a flag a tool does not
// know, whatever the flag; a formatter's check, whatever its diff quotes;
// a build's failure, whatever its progress lines name.
func TestErrorClassSameMistakeTwice(t *testing.T) {
	for _, pair := range [][2]string{
		// a tool that says "unrecognized flag" with the flag it read
		{"rg: unrecognized flag -\n\nsimilar flags that are available: --max-count",
			"rg: unrecognized flag --trace|import.*trace\n\nsimilar flags that are available: --trace"},
		// a formatter's check: the diff quotes code that names errors, or does not
		{"Exit code 1\nDiff in /w/src/agent.rs:32:\n enum Msg {\n\x1b[31m-    Error {\n\x1b(B\x1b[m\x1b[31m-        message: String,\n\x1b(B\x1b[m\x1b[32m+    Error { message: String },\n\x1b(B\x1b[m }\n",
			"Exit code 1\nDiff in /w/src/view.rs:703:\n fn render(frame: &mut Frame) {\n-    let a = 1;\n+    let a =\n+        1;\n }\n"},
		{"--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-raise ValueError('bad')\n+raise ValueError(\"bad\")\nwould reformat x.py\n",
			"--- a/y.py\n+++ b/y.py\n@@ -4,1 +4,1 @@\n-x = [1,2]\n+x = [1, 2]\nwould reformat y.py\n"},
		// a crate whose name holds "error" compiles before the real error
		{"   Compiling thiserror v2.0.18\n   Compiling app v0.1.0\nerror[E0133]: call to unsafe function `set_var` is unsafe\n",
			"   Compiling app v0.1.0\nerror[E0133]: call to unsafe function `remove_var` is unsafe\n"},
	} {
		a, b := ErrorClass(pair[0]), ErrorClass(pair[1])
		if a != b {
			t.Errorf("two readings of one mistake:\n%q\n  -> %q\n%q\n  -> %q", pair[0], a, pair[1], b)
		}
	}
	for _, tt := range []struct{ text, want string }{
		{"rg: unrecognized flag -", "usage"},
		{"Exit code 1\nDiff in /w/src/agent.rs:32:\n-    Error {\n+    Error { message: String },\n", "Diff in <path>:"},
		{"   Compiling thiserror v2.0.18\nerror[E0133]: call to unsafe function `set_var` is unsafe\n", "error[EN]: call to unsafe function <q> is unsafe"},
		// a diff ends at the first line it cannot hold: the error after it is read
		{"@@ -1 +1 @@\n-a\n+b\nerror: 1 file would be reformatted\n", "error: N file would be reformatted"},
	} {
		if got := ErrorClass(tt.text); got != tt.want {
			t.Errorf("ErrorClass(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestErrorWord(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"Compiling thiserror v2.0.18", false}, // a crate's name, not an error
		{"error: could not compile", true},
		{"Returns [`LeesonError::Config`]", true}, // a name's part of its own
		{"no_error_left", true},
		{"Something FAILED", true},
		{"Permission denied (os error 13)", true},
	} {
		if got := errorWord(tt.line); got != tt.want {
			t.Errorf("errorWord(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// An output cut to its head and tail in the middle of a diff: the cut
// line's end is still the diff's.
func TestErrorClassDiffCutShort(t *testing.T) {
	text := "Exit code 1\nDiff in /w/src/a.rs:9:\n-    let a = f(x).map_err(|e| Error::new(e))?;\n+    let a =\n" +
		CutMark + "\nError::new(e))?;\n+        f(x).map_err(|e| Error::new(e))?;\n"
	if got := ErrorClass(text); got != "Diff in <path>:" {
		t.Errorf("ErrorClass(%q) = %q, want the diff's header", text, got)
	}
}

// TestStandsForError: the line a lesson on an error is keyed by must say
// what went wrong, unless the output is that short. A long output with
// no such line (an installer's progress, a table a pipeline's last
// stage then failed on) falls back to its first line, which names
// nothing that failed.
func TestStandsForError(t *testing.T) {
	progress := "Resolving dependencies\nResolved, downloaded and extracted [12]\nSaved lockfile\n+ left-pad@1.3.0\n+ chalk@5.3.0\n2 packages installed [1.20s]"
	table := "  PID  PPID     ELAPSED %CPU %MEM CMD\n  101     1    01:02:03  0.0  0.1 /sbin/init\n  202   101       00:10  1.5  2.0 node server.js\n  303   101       00:05  0.3  0.4 vite\n  404   202       00:01  0.0  0.1 sh"
	for _, tt := range []struct {
		text string
		want bool
	}{
		{progress, false},
		{table, false},
		{"This command requires approval", true}, // all of the output is the message
		{"ERR_PNPM_UNSUPPORTED_ENGINE  Unsupported environment (bad pnpm and/or Node.js version)\n\nYour Node version is incompatible with \"/p\".\n\nExpected version: >=22\nGot: v20.11.0\n\nThis is happening because the package's manifest has an engines.node field specified.", true},
		{"grep: option `--files' is ambiguous\nusage: grep [-abcdDEFGHhIiJLlMmnOopqRSsUVvwXxZz] [-A num] [-B num]\n\t[-e pattern] [-f file] [--binary-files=value] [--color=when]\n\t[--context[=num]] [--directories=action] [--label] [--line-buffered]\n\t[--null] [pattern] [file ...]", true}, // a usage error, by its class
		{progress + "\nerror: postinstall script of esbuild exited with code 1", true},
		{"Diff in /p/src/a.rs:3:\n fn a() {\n-    1\n+    2\n }\n", true},
		// gh pr checks: its rows say which checks failed, not what went wrong with the call
		{"lint\tfail\t2m38s\thttps://github.com/o/r/actions/runs/1/job/2\ntest\tpass\t5m1s\thttps://github.com/o/r/actions/runs/1/job/3", false},
	} {
		if got := StandsForError(tt.text); got != tt.want {
			t.Errorf("StandsForError(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// FuzzErrorClass: any output has a class and an error line, and reading
// them never panics (the hook reads them on every failure).
func FuzzErrorClass(f *testing.F) {
	f.Add("check yaml....................Passed\ndon't commit to branch.......Failed")
	f.Add("/u/.claude/shell-snapshots/snapshot-bash-1.sh: line 1: alias: --: not found\nFile not found: /p/a.md")
	f.Add("Command timed out after 2m 0.0s /home/a/.bashrc: line 1: gh: command not found\n")
	f.Add("Command timed out after ")
	f.Add("ERROR: cd to '/x' was blocked. For security, Claude Code may only change directories")
	f.Fuzz(func(t *testing.T, out string) {
		ErrorClass(out)
		ErrorLine(out)
		for l := range strings.Lines(out) {
			if before, ok := SetupNoise(l); ok && len(before) > len(l) {
				t.Fatalf("SetupNoise(%q) = %q, longer than the line", l, before)
			}
		}
	})
}
