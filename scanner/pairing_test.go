package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

func TestProbeReadsExitCodes(t *testing.T) {
	for _, tt := range []struct {
		cmd, out string
		code     int
		probe    bool
	}{
		{"rg -n foo src", "", 1, true},                                                         // no match
		{`rg -n "-foo" src`, "rg: unrecognized flag -f", 2, false},                             // usage error
		{"grep -q x file", "", 1, true},                                                        // no match
		{"diff a b", "1c1\n< a\n---\n> b", 1, true},                                            // differs
		{"diff a missing", "diff: missing: No such file or directory", 2, false},               // error
		{"test -f x", "", 1, true},                                                             // false
		{"mytool --help", "error: unexpected argument", 2, true},                               // asking how it works
		{"curl https://x.test/a?b=1", "zsh: no matches found: https://x.test/a?b=1", 1, false}, // the shell refused
		{"ls missing", "ls: cannot access 'missing': No such file or directory", 2, true},
		{"npm run build", "Error: Cannot find module 'lodash'", 1, false},
	} {
		got := probe(&Call{Tool: "Bash", Command: tt.cmd}, &Result{ExitCode: tt.code, Output: tt.out})
		if got != tt.probe {
			t.Errorf("probe(%q, exit %d) = %v, want %v", tt.cmd, tt.code, got, tt.probe)
		}
	}
}

// A changed flag value is a fix: --since 1d → --since 1.
func TestFlagValueFix(t *testing.T) {
	failing, fixed := "git-ai log --since 1d", "git-ai log --since 1"
	res := &Result{ExitCode: 2, Output: "error: invalid value '1d' for '--since <DAYS>': invalid digit found in string"}
	if !fixWorthy(failing, fixed, res) {
		t.Fatalf("fixWorthy(%q, %q) = false", failing, fixed)
	}
	cmds, unless, change, ok := fixPatterns(failing, fixed, "")
	if !ok || change != "use --since 1 instead of --since 1d" {
		t.Fatalf("fixPatterns = %v %v %q %v", cmds, unless, change, ok)
	}
	tr := triggerOf(cmds, unless)
	if !commandFires(tr, failing) || commandFires(tr, fixed) || commandFires(tr, "git-ai log --since 7") {
		t.Errorf("trigger %+v: fires on failing %v, on the fix %v, on another value %v", tr,
			commandFires(tr, failing), commandFires(tr, fixed), commandFires(tr, "git-ai log --since 7"))
	}
}

// A user's message corrects a failure only when it is about it.
func TestCorrectionMustReferToTheFailure(t *testing.T) {
	f := &failure{
		rec:  &callRec{call: &Call{Tool: "Bash", Command: "npm run build"}},
		res:  &Result{ExitCode: 1, Output: "Error: Cannot find module 'lodash-es'"},
		kind: KindCorrection,
	}
	for msg, want := range map[string]bool{
		"no, don't use npm here, use pnpm":             true,  // names the command
		"don't add lodash-es, we removed it":           true,  // repeats the error
		"dont forget to log in to the dashboard later": false, // about something else
	} {
		if got := refersTo(msg, f); got != want {
			t.Errorf("refersTo(%q) = %v, want %v", msg, got, want)
		}
	}
}

func triggerOf(cmds, unless []string) lessons.Trigger {
	return lessons.Trigger{Commands: cmds, Unless: unless}
}

// A retry lesson keys on the failing form: a fix that swapped one flag for
// another once gave a lesson that fired on every call without the new one.
func TestRetryTriggerIsSpecific(t *testing.T) {
	for _, tt := range []struct{ failing, fixed, other string }{
		{"git-ai search --verbose login", "git-ai search -v login", "git-ai search --limit 5 billing"},
		{"npx eslint --fix-all src", "npx eslint --fix src", "npx eslint src"},
	} {
		cmds, unless, _, ok := fixPatterns(tt.failing, tt.fixed, "")
		if !ok {
			t.Errorf("fixPatterns(%q, %q) found no trigger", tt.failing, tt.fixed)
			continue
		}
		tr := triggerOf(cmds, unless)
		if !commandFires(tr, tt.failing) || commandFires(tr, tt.fixed) || commandFires(tr, tt.other) {
			t.Errorf("%q → %q: trigger %+v fires on failing %v, fix %v, unrelated %q %v", tt.failing, tt.fixed, tr,
				commandFires(tr, tt.failing), commandFires(tr, tt.fixed), tt.other, commandFires(tr, tt.other))
		}
	}
}

// TestRetryRanTheStepTheErrorNamed: git refused to pull with changes in
// the tree and said to stash them; the same pull with a stash before it
// worked. That is a lesson said right after the same refusal (the error
// says the step, so it is a reminder, never proposed), naming the step.
func TestRetryRanTheStepTheErrorNamed(t *testing.T) {
	const refused = "error: cannot pull with rebase: You have unstaged changes.\nerror: Please commit or stash them."
	dir := t.TempDir()
	writeClaude(t, dir, "/home/u/proj", "s1", []step{
		call("Bash", map[string]any{"command": "git pull --rebase origin main"}, true, "Exit code 128\n"+refused),
		call("Bash", map[string]any{"command": "git stash && git pull --rebase origin main && git stash pop"}, false, "Saved working directory\nSuccessfully rebased"),
	})
	c := oneRetry(t, dir)
	if !strings.Contains(c.Summary, "git stash") || !errorFires(t, c, refused) {
		t.Errorf("summary %q, error triggers %q: want the step, said after the refusal", c.Summary, c.Triggers.Errors)
	}
	if cfg := lessons.DefaultConfig(); !c.Reminder(cfg) || c.Confidence >= cfg.MinConfidence {
		t.Errorf("confidence %.2f: the error says the step, want a reminder that is never proposed", c.Confidence)
	}
}

// TestRetryPutRightAPathFromHome: a script run by a path written from
// $HOME was not found (the error prints the path expanded); the same call
// with the right folder worked, in two sessions. The lesson comes before
// the wrong path is run again, names the right one, and stays quiet
// before the right one.
func TestRetryPutRightAPathFromHome(t *testing.T) {
	const wrong, right = `node "$HOME/.claude/gsd/bin/tool.cjs" init 14`, `node "$HOME/.claude-work/gsd/bin/tool.cjs" init 14`
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeClaude(t, dir, "/home/u/proj", id, []step{
			call("Bash", map[string]any{"command": wrong}, true, "Exit code 1\nError: Cannot find module '/home/u/.claude/gsd/bin/tool.cjs'"),
			call("Bash", map[string]any{"command": right}, false, `{"phase":14}`),
		})
	}
	c := oneRetry(t, dir)
	if !strings.Contains(c.Summary, ".claude-work/gsd/bin/tool.cjs") || c.Confidence < lessons.DefaultConfig().MinConfidence {
		t.Errorf("summary %q, confidence %.2f: want the right path, proposed after two sessions", c.Summary, c.Confidence)
	}
	if !commandFires(c.Triggers, `node "$HOME/.claude/gsd/bin/tool.cjs" roadmap 15`) || commandFires(c.Triggers, right) {
		t.Errorf("triggers %+v: want them before the wrong path, not the right one", c.Triggers)
	}
}

// oneRetry scans dir and returns its one retry lesson.
func oneRetry(t *testing.T, dir string) Candidate {
	t.Helper()
	cs := ofKind(candidatesOf(t, dir), KindRetry)
	if len(cs) != 1 {
		t.Fatalf("%d retry lessons, want 1: %+v", len(cs), cs)
	}
	return cs[0]
}
