package lessons

import (
	"regexp"
	"strings"
	"sync"
)

// worktreeLayouts are where agents and the apps around them put a
// repository's worktrees, one per task: inside the repository (Claude
// Code's .claude/worktrees/NAME, a worktree kept under .git), under an
// id per task (Codex's worktrees/ID/REPO), or under the repository's
// name (Conductor's workspaces/REPO/NAME, a worktrees/REPO/NAME folder).
// Each gives the project's part of the path, in its first group, and
// the repository's name, in its second when the path holds it after
// the task's part. Compiled on first use: the hook links this package.
var worktreeLayouts = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^(.+?)/\.claude/worktrees/[^/]+(?:/.*)?$`),
		regexp.MustCompile(`^(.+?)/\.git/.*$`),
		regexp.MustCompile(`^(.*/\.codex/worktrees)/[^/]+/([^/]+)(?:/.*)?$`),
		regexp.MustCompile(`^(.*/(?:conductor/workspaces|worktrees)/[^/]+)/[^/]+(?:/.*)?$`),
	}
})

// ProjectOf is the project a session's directory stands for, as lessons
// learned in it are kept: the directory itself, or, in a worktree an
// agent made for a task, one name for every worktree of the repository
// in that place (/repo for /repo/.claude/worktrees/fix-login;
// ~/.codex/worktrees/mise for ~/.codex/worktrees/ab92/mise). A mistake
// of the project then comes back across its tasks' worktrees, as it does
// across sessions in one checkout. ProjectOf of its own result is that
// result.
func ProjectOf(dir string) string {
	d := strings.ReplaceAll(dir, "\\", "/") // the same length: offsets in d are offsets in dir
	if !strings.Contains(d, "/.") && !strings.Contains(d, "/worktrees/") && !strings.Contains(d, "/conductor/") {
		return dir // most paths: no layout can match
	}
	for _, re := range worktreeLayouts() {
		m := re.FindStringSubmatchIndex(strings.TrimSuffix(d, "/"))
		if m == nil {
			continue
		}
		project := dir[m[2]:m[3]] // in dir's own separators
		if len(m) > 4 && m[4] >= 0 {
			project += dir[m[3]:m[3]+1] + dir[m[4]:m[5]]
		}
		return project
	}
	return dir
}
