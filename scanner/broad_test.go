package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestBroadTriggerNarrowedToTheError: a fix learned from one failure of
// python (an environment variable) would fire before every python call of
// the history; the scan narrows it to the failure's error, so it comes
// after that error and not before the calls that go fine, and its summary
// says so.
func TestBroadTriggerNarrowedToTheError(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("python scripts/report.py", 1, "Traceback (most recent call last):\nUnicodeEncodeError: 'charmap' codec can't encode character '\\u2713' in position 4"),
		run("PYTHONIOENCODING=utf-8 python scripts/report.py", 0, "done"),
	})
	var fine []step
	for i := range 10 {
		fine = append(fine, run("python scripts/step"+string(rune('a'+i))+".py --check", 0, "ok"))
	}
	writeClaude(t, dir, "/p", "s2", fine)
	scan(t, state, Options{Paths: []string{dir}})
	var c *Candidate
	for _, x := range candidates(t, state) {
		if strings.Contains(x.Trigger, "report.py") {
			c = &x
		}
	}
	if c == nil {
		t.Fatal("no candidate for the encoding fix")
	}
	if len(c.Triggers.Errors) != 1 {
		t.Fatalf("triggers %+v: want the command trigger narrowed by an error trigger", c.Triggers)
	}
	// read alone, "python: add PYTHONIOENCODING=utf-8" says to set it for
	// every call: the summary says after which error
	if !strings.HasPrefix(c.Summary, "python, after “UnicodeEncodeError") || !strings.HasSuffix(c.Summary, ": add PYTHONIOENCODING=utf-8") {
		t.Errorf("summary %q: want the error it comes after, then the fix", c.Summary)
	}
	l := ToLesson(*c)
	if ps := lessons.Errors(lessons.Validate(&l)); len(ps) > 0 {
		t.Fatalf("narrowed lesson does not validate: %v", ps)
	}
	re, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	same, _ := re.MatchString("UnicodeEncodeError: 'charmap' codec can't encode character '\\u00e9' in position 12")
	other, _ := re.MatchString("ModuleNotFoundError: No module named 'yaml'")
	if !same || other {
		t.Errorf("error trigger %q: matches the same error elsewhere %v, another error %v; want true, false", c.Triggers.Errors[0], same, other)
	}
}

// TestBroadTriggerHeldBack: with no error line to narrow it to, a
// heuristic trigger that fires on most calls of its command stays below
// minConfidence; a #lesson block is the agent's word and is left alone.
func TestBroadTriggerHeldBack(t *testing.T) {
	var s callSample
	var cmds []string
	for i := range 10 {
		cmds = append(cmds, "mkdir -p build/"+string(rune('a'+i)))
	}
	s.add(cmds, nil)
	trig := lessons.Trigger{Commands: []string{commandPattern("mkdir -p x")}}
	c := Candidate{Kind: KindRetry, Trigger: "mkdir -p out", Triggers: trig, Sessions: []string{"a", "b"},
		Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "mkdir -p out"}}}, Signals: Signals{FixConfirmed: true}}
	tag := c
	tag.Kind = KindTag
	s.check(&c)
	s.check(&tag)
	DefaultWeights().Score(&c)
	if !c.Signals.Broad || c.Confidence >= lessons.DefaultConfig().MinConfidence {
		t.Errorf("broad heuristic: signals %+v, confidence %.2f; want Broad and below minConfidence", c.Signals, c.Confidence)
	}
	if tag.Signals.Broad {
		t.Error("a #lesson block was marked broad")
	}
}

// TestAskedForLess: a retry that only dropped an option is a fix when the
// error is about that option, not when it asked for less.
func TestAskedForLess(t *testing.T) {
	for _, tc := range []struct {
		change, err string
		want        bool
	}{
		{"drop --log-failed", "log not found: 63652087384", true},
		{"drop --short", "Error: unknown flag: --short", false},
		{"drop --verbose", "Error: Only one output format can be specified. Use one of: --json, --verbose, --porcelain", false},
		{"drop --label docs", "could not add label: 'docs' not found", false},
		{"drop -x", "error: unexpected argument '-x' found\n\nUsage: cargo test [OPTIONS]", false}, // a usage error refused it
		{"add -f, drop README.md", "The following paths are ignored", false},                       // not a drop only
	} {
		if got := askedForLess(tc.change, tc.err); got != tc.want {
			t.Errorf("askedForLess(%q, %q) = %v, want %v", tc.change, tc.err, got, tc.want)
		}
	}
}

// TestRetryThatAskedForLessIsNoLesson: the logs of a run that never
// started are not there; the view without --log-failed worked. No lesson
// says to drop the option.
func TestRetryThatAskedForLessIsNoLesson(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	writeClaude(t, dir, "/p", "s1", []step{
		run("gh run view 22029571754 --log-failed", 1, "log not found: 63652087384"),
		run("gh run view 22029571754", 0, "X ci.yml · 22029571754\nThe job was not started because your account is locked"),
	})
	scan(t, state, Options{Paths: []string{dir}})
	for _, c := range candidates(t, state) {
		if c.Kind == KindRetry {
			t.Errorf("retry lesson %q: the retry asked for less, no option was wrong", c.Summary)
		}
	}
}

// TestRetryNarrowedWhenItsCommandIsNotTheMissingOne: `sleep 15 && gh pr
// checks … | jq` fails because jq is not there, and gh's own --jq works.
// jq's absence says nothing of every gh pr call, and the chain's first
// stage (sleep) is not what the fix changed: the lesson is narrowed to
// its error, not kept before every gh pr call without --jq. A program
// that is itself missing is still about every call of it.
func TestRetryNarrowedWhenItsCommandIsNotTheMissingOne(t *testing.T) {
	failed := "sleep 15 && gh pr checks 9 --json state | jq -r '.[].state'"
	fixed := "sleep 15 && gh pr checks 9 --json state --jq '.[].state'"
	commands, unless, change := []string{headPattern("gh", "pr")}, []string{argPattern("--jq")}, "add --jq"
	for _, tc := range []struct {
		out    string
		narrow bool
	}{
		{"/usr/bin/bash: line 2: jq: command not found", true},
		{"/usr/bin/bash: line 2: gh: command not found", false},
	} {
		c := &Candidate{Kind: KindRetry, Tool: "Bash", Trigger: failed, Fixed: fixed, Problem: tc.out,
			Summary: "gh pr: " + change, Triggers: lessons.Trigger{Commands: commands, Unless: unless},
			Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: failed}}}}
		(&callSample{}).check(c)
		if narrowed := len(c.Triggers.Errors) > 0; narrowed != tc.narrow {
			t.Errorf("error %q: narrowed to it %v, want %v (triggers %+v)", tc.out, narrowed, tc.narrow, c.Triggers)
		}
	}
}

func TestErrorHeadlineOfAGradleReport(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':core:test'.\n> No tests found for given includes: [ParserTest](--tests filter)\n\n* Try:\n> Run with --stacktrace option.",
			"No tests found for given includes: [ParserTest](--tests filter)"},
		{"FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':core:test'.\n> There were failing tests. See the report at: file:///w/index.html",
			"Execution failed for task ':core:test'."},
	} {
		if got := errorHeadline(tt.out); got != tt.want {
			t.Errorf("errorHeadline(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}
