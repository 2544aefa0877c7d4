package replay

import (
	"strings"
	"testing"
	"time"
)

// TestLearnRefusalAnyCommand: the agent's sandbox has no network. In the
// first session `go test` cannot reach the module proxy, and the same
// command out of the sandbox works. In the second, `npm install` cannot
// reach its registry: the lesson learned on `go test` comes with that
// failure (the same refusal, another command and wording), counted
// shortened; a test that fails on its own assertion brings nothing.
func TestLearnRefusalAnyCommand(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	s1 := newClaudeLog("s1", "/home/dev/shop", start)
	s1.bash("go test ./...", "go: downloading golang.org/x/text v0.14.0\n"+
		"go: golang.org/x/text@v0.14.0: Get \"https://proxy.golang.org/golang.org/x/text/@v/v0.14.0.zip\": dial tcp: lookup proxy.golang.org: no such host", true)
	s1.tool("Bash", map[string]any{"command": "go test ./...", "dangerouslyDisableSandbox": true}, "ok  \tshop\t0.2s", false)
	s1.write(t, dir)
	s2 := newClaudeLog("s2", "/home/dev/shop", start.Add(time.Hour))
	s2.bash("npm install", "npm error code ENOTFOUND\nnpm error syscall getaddrinfo\n"+
		"npm error errno ENOTFOUND\nnpm error network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org", true)
	s2.bash("go test ./cart", "--- FAIL: TestTotal (0.00s)\n    cart_test.go:9: got 10, want 12\nFAIL\tshop/cart\t0.01s", true)
	s2.write(t, dir)
	rep, trace := learnAll(t, dir)
	if rep.Learn.Shortened != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d shortened, %d learned fires before fine calls; want 1, 0", rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine)
	}
	for _, c := range traceCalls(t, trace) {
		if c.Session != "s2" || c.Outcome != "failed" {
			continue
		}
		learned := len(learnedFires(c))
		switch {
		case strings.HasPrefix(c.Command, "npm"):
			if c.Class != "refused: network" || c.Verdict != VerdictShortened || learned != 1 {
				t.Errorf("%q: class %q, verdict %q, %d learned fires; want the refusal, shortened by one", c.Command, c.Class, c.Verdict, learned)
			}
		default:
			if learned != 0 {
				t.Errorf("%q: %d learned fires on a test's own failure; want none", c.Command, learned)
			}
		}
	}
}

// TestLearnShellRefusalAnyCommand: zsh expands an unquoted `?` in a URL
// before curl runs and refuses the line; quoted, it works. In the next
// session another program's unquoted URL meets the same refusal: the
// lesson comes with it (the shell's refusal is one class whatever the
// command), counted shortened, and nothing comes before a call.
func TestLearnShellRefusalAnyCommand(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	s1 := newClaudeLog("s1", "/home/dev/shop", start)
	s1.bash("curl -s https://api.example.com/items?limit=5", "zsh:1: no matches found: https://api.example.com/items?limit=5", true)
	s1.bash("curl -s 'https://api.example.com/items?limit=5'", `{"items":[]}`, false)
	s1.write(t, dir)
	s2 := newClaudeLog("s2", "/home/dev/shop", start.Add(time.Hour))
	s2.bash("gh api repos/acme/shop/pulls?state=open", "zsh:1: no matches found: repos/acme/shop/pulls?state=open", true)
	s2.bash("gh api 'repos/acme/shop/pulls?state=open'", "[]", false)
	s2.write(t, dir)
	rep, trace := learnAll(t, dir)
	if rep.Learn.Shortened != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d shortened, %d learned fires before fine calls; want 1, 0\n%s", rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine, trace)
	}
	for _, c := range traceCalls(t, trace) {
		if c.Session == "s2" && c.Outcome == "failed" && (c.Class != "refused: unmatched glob" || c.Verdict != VerdictShortened) {
			t.Errorf("%q: class %q, verdict %q; want the shell's refusal, shortened", c.Command, c.Class, c.Verdict)
		}
	}
}
