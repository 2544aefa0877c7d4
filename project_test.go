package lessons

import "testing"

// TestProjectOf: the worktrees one agent or app makes for a repository's
// tasks stand for one project; other directories for themselves.
func TestProjectOf(t *testing.T) {
	for dir, want := range map[string]string{
		"/home/ann/shop": "/home/ann/shop",
		"/home/ann/shop/.claude/worktrees/fix-login":           "/home/ann/shop",
		"/home/ann/shop/.claude/worktrees/fix-login/web":       "/home/ann/shop",
		"/home/ann/shop/.git/wt/docs/npm":                      "/home/ann/shop",
		"/Users/jdx/.codex/worktrees/ab92/mise":                "/Users/jdx/.codex/worktrees/mise",
		"/Users/jdx/.codex/worktrees/c0d1/mise/src":            "/Users/jdx/.codex/worktrees/mise",
		"/Users/marc/conductor/workspaces/chkit/amman":         "/Users/marc/conductor/workspaces/chkit",
		"/Users/zac/.herdr/worktrees/thewodapp-2/crew-judges":  "/Users/zac/.herdr/worktrees/thewodapp-2",
		"/Users/taras/worktrees/agent-swarm/2026-03-10-feat-x": "/Users/taras/worktrees/agent-swarm",
		"/Users/taras/worktrees/feature-x":                     "/Users/taras/worktrees/feature-x",
		"/Users/marc/conductor/workspaces/chkit":               "/Users/marc/conductor/workspaces/chkit",
		"/Users/jdx/.codex/worktrees/mise":                     "/Users/jdx/.codex/worktrees/mise",
		"/home/ann/work/shop":                                  "/home/ann/work/shop",
		"":                                                     "",
	} {
		got := ProjectOf(dir)
		if got != want {
			t.Errorf("ProjectOf(%q) = %q, want %q", dir, got, want)
		}
		if again := ProjectOf(got); again != got {
			t.Errorf("ProjectOf(%q) = %q, not its own project", got, again)
		}
	}
}
