package scanner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// refused is one tool call a user refused (or, with interrupt, stopped
// while it ran), with what the user said.
type refused struct {
	tool      string
	input     map[string]any
	reason    string
	interrupt bool
	// then is a shell command the agent ran next, which worked.
	then string
}

func bashCall(cmd, reason string) refused {
	return refused{tool: "Bash", input: map[string]any{"command": cmd}, reason: reason}
}

func editCall(path, reason string) refused {
	return refused{tool: "Edit", input: map[string]any{"file_path": path, "old_string": "a", "new_string": "b"}, reason: reason}
}

// writeRefusals writes one Claude Code session in which the user refuses
// each call, saying why at the permission prompt.
func writeRefusals(t *testing.T, dir, id string, calls []refused) {
	t.Helper()
	var b strings.Builder
	sec := 0
	line := func(typ string, content any) {
		sec += 30 // a person reads the prompt and types
		j, _ := json.Marshal(map[string]any{"sessionId": id, "cwd": "/p", "type": typ, "uuid": fmt.Sprintf("%s-%d", id, sec),
			"timestamp": fmt.Sprintf("2026-01-01T%02d:%02d:%02dZ", sec/3600, sec/60%60, sec%60), "message": map[string]any{"content": content}})
		b.Write(j)
		b.WriteByte('\n')
	}
	line("user", "do the task")
	for i, c := range calls {
		tid := fmt.Sprintf("%s-t%d", id, i)
		line("assistant", []any{map[string]any{"type": "tool_use", "id": tid, "name": c.tool, "input": c.input}})
		if c.interrupt {
			line("user", []any{map[string]any{"type": "tool_result", "tool_use_id": tid, "is_error": true, "content": "[Request interrupted by user for tool use]"}})
			line("user", c.reason)
			continue
		}
		line("user", []any{map[string]any{"type": "tool_result", "tool_use_id": tid, "is_error": true,
			"content": "The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\n" + c.reason}})
		line("assistant", []any{map[string]any{"type": "text", "text": "Understood."}})
		if c.then != "" {
			line("assistant", []any{map[string]any{"type": "tool_use", "id": tid + "-then", "name": "Bash", "input": map[string]any{"command": c.then}}})
			line("user", []any{map[string]any{"type": "tool_result", "tool_use_id": tid + "-then", "content": "ok"}})
		}
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// byReason finds the candidate whose solution holds the user's words.
func byReason(t *testing.T, cs []Candidate, reason string) Candidate {
	t.Helper()
	for _, c := range cs {
		if strings.Contains(c.Solution, reason) {
			return c
		}
	}
	t.Fatalf("no candidate for %q", reason)
	return Candidate{}
}

// TestRefusalTriggerKeepsWhatWasRefused: a refused command's lesson
// fires on calls like the one refused, not on every call of its command:
// the argument that made it the one refused (its target) stays in the
// trigger, unless the user's words are about the command itself.
func TestRefusalTriggerKeepsWhatWasRefused(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeRefusals(t, dir, "s1", []refused{
		bashCall("git add notes/scratch-plan.md && git commit -m wip", "keep the plan out of the repository"),
		bashCall("make release 2>&1 | tail -5", "skip the packaging step, carry on with the docs"),
		bashCall("git stash", "never stash, read the files you need"),
		bashCall("npm install lodash", "use pnpm"),
		bashCall("git push --force origin main", "never force push to a shared branch"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	cs := candidates(t, state)
	for _, tt := range []struct {
		reason, refused string
		fires, quiet    []string
	}{
		{"keep the plan out", "git add notes/scratch-plan.md && git commit -m wip", []string{"git add notes/scratch-plan.md"}, []string{"git add main.go", "git add -A"}},
		{"skip the packaging", "make release 2>&1 | tail -5", []string{"make release"}, []string{"make test", "make lint"}},
		{"never stash", "git stash", []string{"git stash push -m wip", "git stash"}, []string{"git status"}},
		{"use pnpm", "npm install lodash", []string{"npm install react", "npm install"}, []string{"pnpm install"}},
		{"never force push", "git push --force origin main", []string{"git push --force origin dev"}, []string{"git push origin main"}},
	} {
		c := byReason(t, cs, tt.reason)
		l := ToLesson(c)
		for _, cmd := range append([]string{tt.refused}, tt.fires...) {
			if ok, err := engine.MatchLesson(&l, lessons.ToolCall{Tool: "Bash", Command: cmd}); err != nil || !ok {
				t.Errorf("%q: trigger %q does not fire on %q", tt.reason, c.Triggers.Commands, cmd)
			}
		}
		for _, cmd := range tt.quiet {
			if ok, _ := engine.MatchLesson(&l, lessons.ToolCall{Tool: "Bash", Command: cmd}); ok {
				t.Errorf("%q: trigger %q fires on %q", tt.reason, c.Triggers.Commands, cmd)
			}
		}
	}
}

// TestRefusalAboutTheCallAtHandHeldBack: seen in one session, every
// refusal stays below minConfidence: on the labelled held-out sets such
// refusals were kept 1 time in 18, rule-like words or not. Seen again
// in another session, words that read as a rule, or that point at the
// call, earn their confidence.
func TestRefusalAboutTheCallAtHandHeldBack(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	task := refused{tool: "Task", input: map[string]any{"description": "review", "prompt": "review the change"}, reason: "always ask the reviewer to look at the migrations only"}
	writeRefusals(t, dir, "s1", []refused{
		bashCall("git add notes/scratch-plan.md", "don't commit this"),
		bashCall("make dist", "don't build the packages for now, carry on"),
		bashCall("golangci-lint run ./pkg/...", "don't open a pull request, a commit is enough"),
		editCall("/p/store/ledger.go", "I'd rather use a slice and sort it once"),
		editCall("/p/store/kinds.go", "don't reuse the old type, this has grown apart"),
		editCall("/p/store/reader.go", "(if we go this way, use a flag for the batch mode instead)"),
		{tool: "Write", input: map[string]any{"file_path": "/p/docs/plans/2026-03-04-sync-impl.md", "content": "x"}, reason: "avoid repeating the design doc"},
		task,
		bashCall("pnpm test 2>&1 | tail -10", "lets undo the last change to the signup flow. I want the event page to list the signups but marked in red then the signup page for that event to give the warning instead of letting them sign up again for that group which would cause trouble"),
		// rules
		bashCall("git stash", "never stash, read the files you need"),
		bashCall("npm install lodash", "use pnpm"),
		bashCall("go build ./...", "use the make target, it sets the version"),
		editCall("/p/store/summary.go", "prefer background workers to keep the request path short"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	minConf := lessons.DefaultConfig().MinConfidence
	cs := candidates(t, state)
	for _, reason := range []string{"don't commit this", "don't build the packages for now", "don't open a pull request", "I'd rather use a slice",
		"don't reuse the old type", "if we go this way", "avoid repeating the design doc", "always ask the reviewer", "undo the last change to the signup flow",
		"never stash", "use pnpm", "use the make target", "prefer background workers"} {
		if c := byReason(t, cs, reason); c.Confidence >= minConf {
			t.Errorf("%q (trigger %+v): confidence %.2f, want below %.2f", reason, c.Triggers, c.Confidence, minConf)
		}
	}

	writeRefusals(t, dir, "s2", []refused{task, bashCall("make dist", "don't build the packages for now, carry on"),
		bashCall("git stash", "never stash, read the files you need"), bashCall("npm install lodash", "use pnpm"),
		bashCall("go build ./...", "use the make target, it sets the version"),
		editCall("/p/store/summary.go", "prefer background workers to keep the request path short")})
	scan(t, state, Options{Paths: []string{dir}})
	cs = candidates(t, state)
	for _, reason := range []string{"always ask the reviewer", "don't build the packages for now", "never stash", "use pnpm", "use the make target", "prefer background workers"} {
		if c := byReason(t, cs, reason); c.Confidence < minConf || len(c.Sessions) != 2 {
			t.Errorf("%q seen in %d sessions: confidence %.2f, want at least %.2f", reason, len(c.Sessions), c.Confidence, minConf)
		}
	}
}

func TestParticularReason(t *testing.T) {
	for _, tt := range []struct {
		reason string
		want   bool
	}{
		{"don't commit this", true},
		{"don't push that up", true},
		{"don't run it", true},
		{"skip the lint for now, carry on", true},
		{"not yet", true},
		{"if we go this way we need a flag too", true},
		{"I'd prefer a slice", true},
		{"we would need a migration first", true},
		{"this is not what I asked", true},
		{"ah but it's about the old note, so we don't need it", true}, // the object after the verb is the thing at hand
		{"you should run it with -v", true},
		{"never stash, read the files you need", false},
		{"use pnpm, it is faster here", false}, // "it is faster" is a statement, not about the call
		{"use the flag that prints less", false},
		{"don't use npm in this repo, use pnpm", false}, // a scope, not the call
		{"this repo uses pnpm, don't use npm", false},
		{"we don't want a switch on the agent's name if we can help it", false},
		{"don't run the integration suite, too slow", false},
		{"prefer background workers to keep the request path short", false},
		{"Never run the migration on prod; use the staging db instead", false},
	} {
		if got := particular(tt.reason); got != tt.want {
			t.Errorf("particular(%q) = %v, want %v", tt.reason, got, tt.want)
		}
	}
}

// TestCorrectionNamesItsError: a user's correction of a failed call may
// answer its error rather than name the command; it is about the call.
// Words that name neither are about the task.
func TestCorrectionNamesItsError(t *testing.T) {
	for _, tt := range []struct {
		said   string
		oneOff bool
	}{
		{"always install requests into the venv first", false},
		{"always work on a feature branch", true},
	} {
		f := finding{Kind: KindCorrection, Tool: "Bash", Trigger: "pytest -x", Problem: "ModuleNotFoundError: No module named 'requests'",
			Solution: tt.said, Line: 1, Signals: Signals{UserCorrection: true}}
		c, _ := build(f, Session{ID: "s"}, "f.jsonl", "claude", time.Now())
		if c.Signals.OneOff != tt.oneOff {
			t.Errorf("correction %q of %q: oneOff %v, want %v", tt.said, f.Problem, c.Signals.OneOff, tt.oneOff)
		}
	}
}

// TestInterruptedWithAQuestion: a question or a remark a user types after
// stopping a call is not a lesson, as it is not for a refusal; an
// instruction is, once it came in two sessions.
func TestInterruptedWithAQuestion(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for _, id := range []string{"s1", "s2"} {
		writeRefusals(t, dir, id, []refused{
			{tool: "Bash", input: map[string]any{"command": "go test ./..."}, reason: "wait, why does go test run the whole module?", interrupt: true},
			{tool: "Bash", input: map[string]any{"command": "make e2e"}, reason: "never run make e2e locally, the suite needs the staging cluster", interrupt: true},
		})
	}
	scan(t, state, Options{Paths: []string{dir}})
	minConf := lessons.DefaultConfig().MinConfidence
	cs := candidates(t, state)
	if c := byReason(t, cs, "why does go test"); c.Kind != KindCorrection || c.Confidence >= minConf {
		t.Errorf("%s %q: confidence %.2f, want a correction below %.2f", c.Kind, c.Summary, c.Confidence, minConf)
	}
	if c := byReason(t, cs, "never run make e2e"); c.Confidence < minConf {
		t.Errorf("%q: confidence %.2f, want at least %.2f (signals %+v)", c.Summary, c.Confidence, minConf, c.Signals)
	}
}

// FuzzRefusedPattern: whatever a log holds, reading a refusal never
// panics, and the trigger it gives compiles.
func FuzzRefusedPattern(f *testing.F) {
	f.Add("git add notes/draft.md && git commit -m wip", "don't add the draft to git")
	f.Add("make dist 2>&1 | tail -5", "not now, if we do that")
	f.Add("FOO=1 sudo -E npm run build \\\n --x", "that's it")
	f.Fuzz(func(t *testing.T, cmd, words string) {
		particular(words)
		namesCall(words, cmd, words)
		if p := refusedPattern(cmd, words); p != "" {
			if _, err := lessons.CompilePattern(p); err != nil {
				t.Errorf("refusedPattern(%q, %q) = %q: %v", cmd, words, p, err)
			}
		}
	})
}

// TestCorrectionOfAFailureKeepsTheCommand: a user who answers a failure
// says how to run the command, whatever it was aimed at; only a call the
// user stopped keeps its target in the trigger.
func TestCorrectionOfAFailureKeepsTheCommand(t *testing.T) {
	f := finding{Kind: KindCorrection, Tool: "Bash", Trigger: "pytest tests/test_cart.py", Problem: "ModuleNotFoundError: No module named 'requests'",
		Solution: "always activate the venv first", Line: 1, Signals: Signals{UserCorrection: true}}
	c, _ := build(f, Session{ID: "s"}, "f.jsonl", "claude", time.Now())
	if !commandFires(c.Triggers, "pytest tests/test_orders.py") {
		t.Errorf("correction of a failure: trigger %q does not fire on another pytest run", c.Triggers.Commands)
	}
	f.Stopped = true
	c, _ = build(f, Session{ID: "s"}, "f.jsonl", "claude", time.Now())
	if commandFires(c.Triggers, "pytest tests/test_orders.py") || !commandFires(c.Triggers, f.Trigger) {
		t.Errorf("a stopped call: trigger %q should fire on %q only", c.Triggers.Commands, f.Trigger)
	}
}

// TestPermissionRefusalTeachesNoWayAround: Claude Code's auto mode
// classifier denies a call; the agent then gets the same work done by
// another form of the command. That is a way around the user's
// permission settings, not a fix: the lesson on the denial names none,
// says to ask the user, and is said after the denial, not proposed.
func TestPermissionRefusalTeachesNoWayAround(t *testing.T) {
	denied := "Permission for this action was denied by the Claude Code auto mode classifier. Reason: it sends credentials to a remote host"
	around := `cd /tmp && curl -sk https://10.0.0.5/v1/auth -d @body.json | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'`
	f := finding{
		Kind: KindError, Tool: "Bash", Trigger: `python3 -c 'import login; login.run("10.0.0.5")'`, Fixed: around,
		Change: "Bash python3 -c | " + lessons.ErrorClass(denied), Problem: denied, ErrLine: denied,
		Solution: "`" + around + "` worked", Signals: Signals{FixConfirmed: true},
	}
	c, ok := build(f, Session{ID: "s1", Project: "/p"}, "/logs/s1.jsonl", "claude", time.Now())
	if !ok {
		t.Fatal("no lesson on the denial")
	}
	DefaultWeights().Score(&c)
	cfg := lessons.DefaultConfig()
	if strings.Contains(c.Solution, "curl") || c.Fixed != "" || !strings.Contains(c.Solution, "ask the user") {
		t.Errorf("solution %q (fixed %q): want no way around the refusal, and to ask the user", c.Solution, c.Fixed)
	}
	if c.Confidence >= cfg.MinConfidence || !c.Reminder(cfg) {
		t.Errorf("confidence %.2f, reminder %v: want it said after the denial, not proposed", c.Confidence, c.Reminder(cfg))
	}
}

// TestRefusalRetryTheWordsDoNotName: the user refuses a call and the
// agent's next call changes something the user's words do not name (a
// longer wait, after "don't merge with admin rights, wait for CI"): that
// change is the agent's reading, not the user's lesson, and it is held
// back. A retry that does what the words say ("use pnpm", then pnpm) is
// proposed, once it came in two sessions.
func TestRefusalRetryTheWordsDoNotName(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	cfg := lessons.DefaultConfig()
	pnpm := refused{tool: "Bash", input: map[string]any{"command": "npm install lodash"}, reason: "use pnpm, not npm", then: "pnpm install lodash"}
	writeRefusals(t, dir, "s1", []refused{
		{tool: "Bash", input: map[string]any{"command": "sleep 5 && gh pr merge 42 --squash --admin"},
			reason: "No, wait for all the checks to pass, don't use admin", then: "sleep 20 && gh pr merge 42 --squash --admin"},
		pnpm,
	})
	writeRefusals(t, dir, "s2", []refused{pnpm})
	scan(t, state, Options{Paths: []string{dir}})
	cs := candidates(t, state)
	if c := byReason(t, cs, "wait for all the checks"); c.Confidence >= cfg.MinConfidence {
		t.Errorf("%q (%s): confidence %.2f, want held back: the words name nothing the retry changed", c.Summary, c.Kind, c.Confidence)
	}
	if c := byReason(t, cs, "use pnpm"); c.Confidence < cfg.MinConfidence {
		t.Errorf("%q (%s): confidence %.2f, want proposed: the retry did what the words say", c.Summary, c.Kind, c.Confidence)
	}
}

// TestNamesCall: a user's words name a call by a word of it, or by a word
// holding one of four letters or more ("linting" names lint); three
// letters inside a longer word are chance ("the" in "other").
func TestNamesCall(t *testing.T) {
	for _, tc := range []struct {
		words, cmd string
		want       bool
	}{
		{"linting takes too long here", "npm run lint", true},
		{"never stash", "git stash push -m wip", true},
		{"wait for the answer first", "cat other.txt", false},
		{"ask me about them first", "cat mother.txt", false},
	} {
		if got := namesCall(tc.words, tc.cmd, ""); got != tc.want {
			t.Errorf("namesCall(%q, %q) = %v, want %v", tc.words, tc.cmd, got, tc.want)
		}
	}
}

// TestCdOutOfTheWorkingDirectories: Claude Code refusing a cd out of the
// session's directories is the command line's fault, whatever program
// followed the cd: a lesson on the refusal after any shell command, not a
// retry lesson for the one program that then worked with its folder
// passed.
func TestCdOutOfTheWorkingDirectories(t *testing.T) {
	dir := t.TempDir()
	blocked := "ERROR: cd to '/home/ann/lib' was blocked. For security, Claude Code may only change directories to child directories of the original working directory (/home/ann/app) for this session."
	other := "ERROR: cd to '/srv/www' was blocked. For security, Claude Code may only change directories to child directories of the original working directory (/home/ann/app) for this session."
	writeClaude(t, dir, "/home/ann/app", "s1", []step{
		run("cd /home/ann/lib && git status", 1, blocked),
		run("git -C /home/ann/lib status", 0, "On branch main"),
	})
	onRefusal := 0
	cs := candidatesOf(t, dir)
	for _, c := range cs {
		if c.Kind == KindRetry {
			t.Errorf("retry lesson %q: what got past the refusal was the folder passed, not git's own change", c.Summary)
		}
		if len(c.Triggers.Errors) == 1 && len(c.Triggers.Commands) == 0 {
			re, err := lessons.CompilePattern(c.Triggers.Errors[0])
			if ok, _ := re.MatchString(other); err == nil && ok && strings.Contains(c.Solution, "`cd` or a path out of the session's working directories") {
				onRefusal++
			}
		}
	}
	if onRefusal == 0 {
		t.Errorf("candidates %q: none on the refusal after any command", summaries(cs))
	}
}

// TestInterruptedByUserV1: Claude Code 1.0 logged a call the user
// stopped as an error result that says only "Interrupted by user". The
// user stopped the turn; the call did not fail: no lesson on it, however
// many sessions it came in.
func TestInterruptedByUserV1(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"s1", "s2", "s3"} {
		writeClaude(t, dir, "/p", id, []step{
			call("Read", map[string]any{"file_path": "/p/src/radio.c"}, true, "Interrupted by user"),
			call("Bash", map[string]any{"command": "python3 -c 'import time; time.sleep(600)'"}, true, "Interrupted by user"),
			run("ls", 0, "src"),
		})
	}
	for _, c := range reaching(t, dir) {
		if strings.Contains(c.Summary+c.Problem, "Interrupted by user") {
			t.Errorf("%s %q: an interrupt is no failure to learn from", c.Kind, c.Summary)
		}
	}
}
