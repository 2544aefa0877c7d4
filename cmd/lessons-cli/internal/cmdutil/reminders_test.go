package cmdutil

import (
	"testing"

	"github.com/lessons-dev/lessons/scanner"
)

// TestSeenIn: a reminder seen in one project applies there, below it, and
// in the other worktrees an agent made of the same repository; not in
// another project. One seen in two projects applies everywhere.
func TestSeenIn(t *testing.T) {
	for _, tc := range []struct {
		seen    []string
		project string
		want    bool
	}{
		{[]string{"/home/ann/shop"}, "/home/ann/shop", true},
		{[]string{"/home/ann/shop/web"}, "/home/ann/shop", true},
		{[]string{"/home/ann/shop"}, "/home/ann/shop/.claude/worktrees/fix-login", true},
		{[]string{"/Users/jdx/.codex/worktrees/mise"}, "/Users/jdx/.codex/worktrees/ab92/mise", true},
		{[]string{"/home/ann/shop"}, "/home/ann/blog", false},
		{[]string{"/Users/jdx/.codex/worktrees/mise"}, "/Users/jdx/.codex/worktrees/ab92/usage", false},
		{[]string{"/home/ann/shop", "/home/ann/blog"}, "/srv/other", true},
	} {
		if got := seenIn(scanner.Candidate{Projects: tc.seen}, tc.project); got != tc.want {
			t.Errorf("seenIn(%v, %s) = %v, want %v", tc.seen, tc.project, got, tc.want)
		}
	}
}
