package lessons

import "testing"

// TestRefusalClass: an environment's refusal is one class per kind,
// whatever the command and its wording, and its line is the error line;
// a failure that only mentions a permission or a host in passing is not
// one.
func TestRefusalClass(t *testing.T) {
	for _, c := range []struct{ out, class, line string }{
		{"go: example.com/m@v1.0.0: Get \"https://proxy.golang.org/x\": dial tcp: lookup proxy.golang.org: no such host",
			"refused: network", "go: example.com/m@v1.0.0: Get \"https://proxy.golang.org/x\": dial tcp: lookup proxy.golang.org: no such host"},
		{"fatal: unable to access 'https://github.com/a/b.git/': Could not resolve host: github.com",
			"refused: network", "fatal: unable to access 'https://github.com/a/b.git/': Could not resolve host: github.com"},
		{"npm error code EAI_AGAIN\nnpm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org",
			"refused: network", "npm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org"},
		{"node:events:486\n      throw er;\n      ^\n\nError: listen EPERM: operation not permitted 127.0.0.1",
			"refused: operation not permitted", "Error: listen EPERM: operation not permitted 127.0.0.1"},
		{"Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\nPermissionError: [Errno 1] Operation not permitted: '/Users/a/.cache/x'",
			"refused: operation not permitted", "PermissionError: [Errno 1] Operation not permitted: '/Users/a/.cache/x'"},
		{"open /root/.cache/go-build/01/abc-d: read-only file system",
			"refused: read-only file system", "open /root/.cache/go-build/01/abc-d: read-only file system"},
		{"sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper\nsudo: a password is required",
			"refused: sudo password", "sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper"},
		{"sudo: no tty present and no askpass program specified", "refused: sudo password", "sudo: no tty present and no askpass program specified"},
		{"Cloning into 'app'...\nfatal: could not read Username for 'https://github.com': No such device or address",
			"refused: credentials", "fatal: could not read Username for 'https://github.com': No such device or address"},
		{"fatal: could not read Username for 'https://gitlab.com': terminal prompts disabled",
			"refused: credentials", "fatal: could not read Username for 'https://gitlab.com': terminal prompts disabled"},
		{"Host key verification failed.\nfatal: Could not read from remote repository.", "refused: credentials", "Host key verification failed."},

		{"zsh:1: no matches found: https://api.example.com/items?limit=5",
			"refused: unmatched glob", "zsh:1: no matches found: https://api.example.com/items?limit=5"},
		{"fish: No matches for wildcard 'src/*.rs'. See `help wildcards-globbing`.",
			"refused: unmatched glob", "fish: No matches for wildcard 'src/*.rs'. See `help wildcards-globbing`."},
		{"(eval):1: read-only variable: status", "refused: read-only variable", "(eval):1: read-only variable: status"},
		{"At line:1 char:10\n+ npm ci && npm test\n+          ~~\nThe token '&&' is not a valid statement separator in this version.\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException",
			"refused: statement separator", "The token '&&' is not a valid statement separator in this version."},
		{"ERROR: cd to '/home/a/other' was blocked. For security, Claude Code may only change directories to child directories of the original working directory (/home/a/app) for this session.",
			"refused: working directories", "ERROR: cd to '/home/a/other' was blocked. For security, Claude Code may only change directories to child directories of the original working directory (/home/a/app) for this session."},
		{"cd in '/home/a/other' was blocked. For security, Claude Code may only change directories to the allowed working directories for this session: '/home/a/app'.",
			"refused: working directories", "cd in '/home/a/other' was blocked. For security, Claude Code may only change directories to the allowed working directories for this session: '/home/a/app'."},
		{"This command requires approval", "refused: permission", "This command requires approval"},
		{"Permission to use Bash with command rm -rf /tmp/x has been denied.", "refused: permission", "Permission to use Bash with command rm -rf /tmp/x has been denied."},
		{"Permission to use Bash has been denied because Claude Code is running in don't ask mode. IMPORTANT: You may attempt to accomplish this action using other tools",
			"refused: permission", "Permission to use Bash has been denied because Claude Code is running in don't ask mode. IMPORTANT: You may attempt to accomplish this action using other tools"},
		{"Permission for this action was denied by the Claude Code auto mode classifier. Reason: writes outside the project",
			"refused: permission", "Permission for this action was denied by the Claude Code auto mode classifier. Reason: writes outside the project"},
		{"Permission for this action has been denied. Reason: the user's rules deny it", "refused: permission", "Permission for this action has been denied. Reason: the user's rules deny it"},
		{"No matches found.", "", ""},
		{"gh: You do not have permission to use this resource (HTTP 403)", "", ""},
		{"bash: ./deploy.sh: Permission denied", "", ""},
		{"--- FAIL: TestHost (0.00s)\n    host_test.go:9: got \"a\", want \"b\"\nFAIL", "", ""},
	} {
		class := ErrorClass(c.out)
		if c.class == "" {
			if IsRefusal(class) {
				t.Errorf("%q: class %q, want no refusal", c.out, class)
			}
			continue
		}
		if class != c.class {
			t.Errorf("%q: class %q, want %q", c.out, class, c.class)
		}
		if line, _ := ErrorLine(c.out); line != c.line {
			t.Errorf("%q: error line %q, want %q", c.out, line, c.line)
		}
		object, pattern := ClassObject(class)
		re, err := CompilePattern(pattern)
		if object == "" || err != nil {
			t.Fatalf("%s: object %q, pattern %q (%v)", class, object, pattern, err)
		}
		if ok, _ := re.MatchString(c.line); !ok {
			t.Errorf("%s: pattern %q misses %q", class, pattern, c.line)
		}
	}
}
