package scanner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestEchoes: a fix echoes its failure when every word it adds is in the
// output, and one of them is a name.
func TestEchoes(t *testing.T) {
	for _, tc := range []struct {
		output, failed, worked string
		want                   bool
	}{
		{"✖ 2 problems\n  2 errors potentially fixable with the `--fix` option.", "npx eslint src", "npx eslint src --fix", true},
		{`Expected "text" | "markdown" | "html", got "json"`, "format=json url=https://x.dev/a", "`format` `text`", true},
		{"error: toolchain lacks llvm-tools; run `rustup component add llvm-tools`", "cargo pgo build", "rustup component add llvm-tools", true},
		{"The following paths are ignored by one of your .gitignore files:\nbuild\nhint: Use -f if you really want to add them.", "git add build/out.txt", "git add -f build/out.txt", true},                                                     // an option the hint names
		{"hint: Updates were rejected because the remote contains work that you do not have locally.\nhint: You may want to first integrate the remote changes (e.g., 'git pull ...') before pushing again.", "git push", "git pull 2>&1", true}, // a redirection is no word of the fix
		{"Missing dependency: typer. Install with `python3 -m pip install typer`.", "python3 wizard.py init", "python3 -m pip install --break-system-packages typer", true},                                                                      // the command the output names, and a flag
		{"hint: You may want to first integrate the remote changes\nhint: (e.g., 'git pull ...') before pushing again.", "git push origin develop", "git pull origin develop --rebase", true},
		{"go: updates to go.mod needed; to update it:\n\tgo mod tidy", "go test ./...", "go mod download", false},                                                                                                                                                                                                                                  // another subcommand than the one named
		{"use of --visibility flag requires --accept-visibility-change-consequences flag\n\nUsage:  gh repo edit [<repository>] [flags]\n\nFlags:\n      --accept-visibility-change-consequences   Accept the consequences", "gh repo edit --visibility public", "gh repo edit --visibility public --accept-visibility-change-consequences", true}, // the message before the usage text names it
		{"zsh:1: command not found: python", "python gen.py", "python3 gen.py", false},
		{"✖ 2 problems", "npx eslint src", "npx eslint src --fix", false},
		{"error: unexpected argument '-x'", "cargo test -x", "cargo test", false},                                                                                                                      // nothing added
		{"Usage: claude mcp [options] [command]\n\nCommands:\n  list  List configured MCP servers\n  add   Add a server", "claude mcp", "claude mcp list", true},                                       // run bare, it listed the subcommand the fix picked
		{"usage: tool [-e]\n -e  keep going", "tool run", "tool run -e", false},                                                                                                                        // no name among the added words
		{"unknown flag: --stat\n\nUsage:  gh pr diff [<number>] [flags]\n\nFlags:\n      --name-only   Display only names of changed files", "gh pr diff 5 --stat", "gh pr diff 5 --name-only", false}, // a usage text lists every option
		// the output prints the call, its option spelled another way
		{"fatal: The current branch feat/login has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feat/login\n", "git push", "git push -u origin feat/login", true},
		{"error TS5058: The specified path does not exist: 'tsconfig.json'.", "tsc --noEmit", "tsc -p tsconfig.app.json --noEmit", false}, // a value the output does not print
	} {
		if got := echoes(tc.output, tc.failed, tc.worked); got != tc.want {
			t.Errorf("echoes(%q, %q, %q) = %v, want %v", tc.output, tc.failed, tc.worked, got, tc.want)
		}
	}
}

// TestRetryTheErrorNames: a lint run fails, in two sessions, and the
// same run with a flag its output names works. The retry's lesson comes
// after the error at most, and is not proposed: the error already
// says it, and a lesson before every lint run that adds --fix would turn
// every check into an edit.
func TestRetryTheErrorNames(t *testing.T) {
	for _, tc := range []struct {
		out      string
		proposed bool
	}{
		{"src/a.ts\n  3:1  error  Missing semicolon  semi\n\n✖ 1 problem (1 error, 0 warnings)\n  1 error potentially fixable with the `--fix` option.", false},
	} {
		dir := t.TempDir()
		for _, id := range []string{"s1", "s2"} {
			writeClaude(t, dir, "/p", id, []step{
				run("npx eslint src", 1, tc.out),
				run("npx eslint src --fix", 0, ""),
			})
		}
		state := t.TempDir()
		scan(t, state, Options{Paths: []string{dir}})
		cfg := lessons.DefaultConfig()
		found := false
		for _, c := range candidates(t, state) {
			if !strings.Contains(c.Solution, "--fix") {
				continue
			}
			found = true
			if proposed := c.Confidence >= cfg.MinConfidence; proposed != tc.proposed {
				t.Errorf("output %q: %s lesson %q at confidence %.2f; want proposed %v", tc.out, c.Kind, c.Summary, c.Confidence, tc.proposed)
			}
		}
		if !found {
			t.Errorf("output %q: no lesson naming --fix", tc.out)
		}
	}
}

// FuzzEchoes: any output, failed call and fix: echoes, and the readings
// under it, never panic.
func FuzzEchoes(f *testing.F) {
	f.Add("hint: (e.g., 'git pull ...')\nUsage: git push", "git push", "git pull --rebase 2>&1")
	f.Add("Install with `python3 -m pip install typer`", "python3 a.py", "python3 -m pip install typer")
	f.Fuzz(func(t *testing.T, output, failed, worked string) {
		echoes(output, failed, worked)
		if d, ok := inPlace(failed, worked); ok {
			d.operandChange()
		}
	})
}

// TestEchoRetryComesBack: the error names the value it does not take,
// and the retry drops it: a lesson said before the call. In one session
// it is not proposed: the error's words suffice. When the same mistake
// comes back in a second session, the error's words did not stop it,
// and the lesson is proposed.
func TestEchoRetryComesBack(t *testing.T) {
	for n, want := range map[int]bool{1: false, 2: true} {
		dir := t.TempDir()
		for i := range n {
			writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i), []step{
				run("gh pr view 12 --json title,reviewThreads", 1, "Unknown JSON field: \"reviewThreads\"\nAvailable fields:\n  author\n  title"),
				run("gh pr view 12 --json title,author", 0, "{}"),
			})
		}
		got := false
		for _, c := range shown(t, dir) {
			got = got || c.Kind == KindRetry && strings.Contains(c.Summary, "drop reviewThreads") && len(c.Triggers.Errors) == 0
		}
		if got != want {
			t.Errorf("%d sessions: retry lesson before the call proposed %v, want %v: %q", n, got, want, summaries(shown(t, dir)))
		}
	}
}
