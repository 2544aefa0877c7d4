package scanner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

func TestWeightsWith(t *testing.T) {
	w, err := DefaultWeights().With(map[string]float64{"heuristicConfidence": 0.3, "basePriority": 4})
	if err != nil {
		t.Fatal(err)
	}
	if w.HeuristicConfidence != 0.3 || w.BasePriority != 4 || w.TagConfidence != 0.85 {
		t.Errorf("With = %+v, want two weights changed and the rest default", w)
	}
	if _, err := DefaultWeights().With(map[string]float64{"heuristicConfidense": 1}); err == nil || !strings.Contains(err.Error(), "heuristicConfidense") {
		t.Errorf("unknown weight: err = %v, want one naming it", err)
	}
}

func TestWeakRejectionEarnsNoFixBonus(t *testing.T) {
	c := &Candidate{Kind: KindRejection, Occurrences: 1, Signals: Signals{FixConfirmed: true, UserCorrection: true, Question: true}}
	DefaultWeights().Score(c)
	if c.Confidence >= 0.5 {
		t.Errorf("a question followed by a change scored %.2f, want below minConfidence 0.5", c.Confidence)
	}
}

func TestConfidenceGrowsWithSupport(t *testing.T) {
	w := DefaultWeights()
	var last float64
	for _, n := range []int{1, 2, 4, 8} {
		c := &Candidate{Kind: KindRetry, Signals: Signals{FixConfirmed: true}}
		for i := range n {
			c.Sessions = append(c.Sessions, string(rune('a'+i)))
		}
		w.Score(c)
		if c.Confidence <= last {
			t.Errorf("%d sessions: confidence %.2f, want more than with fewer (%.2f)", n, c.Confidence, last)
		}
		last = c.Confidence
	}
}

func TestOneOffFixHeldBack(t *testing.T) {
	cases := []struct {
		change string
		want   bool
	}{
		{"add 280r rmul_impl.txt", true},
		{"run `cd /d/oh-my-posh` first", true},
		{"use -l cmd/ instead of -l ./cmd/entire/...", true},
		{"add obra/coderabbit-review-helper/2", true},
		{"drop 8312232", true},
		{"add -- --watchAll=false CI=true", false},
		{"drop --no-stat", false},
		{"use bun instead of rtk", false},
		{"add MSYS_NO_PATHCONV=1", false},
		{"use --since 1 instead of --since 1d", false},
		{"add -e", false},
	}
	if oneOff("add -u origin feature/cart", "fatal: The current branch feature/cart has no upstream branch.") {
		t.Error("a branch the error named is the tool's advice, not a one-off")
	}
	if !oneOff("use -l src/ instead of -l ./src/app/views/...", "stat ./src/app/views/...: no such file or directory") {
		t.Error("a path the fix replaced is one task's, even when the error names it")
	}
	for _, c := range cases {
		if got := oneOff(c.change, "error: missing argument"); got != c.want {
			t.Errorf("oneOff(%q) = %v, want %v", c.change, got, c.want)
		}
	}
	w := DefaultWeights()
	c := &Candidate{Kind: KindRetry, Sessions: []string{"s1"}, Signals: Signals{FixConfirmed: true, OneOff: true}}
	w.Score(c)
	if c.Confidence >= 0.5 {
		t.Errorf("one-off fix in one session: confidence %.2f, want below 0.5", c.Confidence)
	}
	c.Sessions = append(c.Sessions, "s2")
	w.Score(c)
	if c.Confidence < 0.5 {
		t.Errorf("one-off fix seen in two sessions: confidence %.2f, want at least 0.5", c.Confidence)
	}
}

// TestFixAfterSeveralTriesNotProposed: a command fails; in one history
// the next call, without the flag the error names, works; in another
// the agent tries another set-up that fails too before a call that
// works. The first history's lesson is proposed; the second's is not
// (which of its changes got past the error is unsure), and it is still
// said after its error when it has an error trigger.
func TestFixAfterSeveralTriesNotProposed(t *testing.T) {
	bad := "error: unexpected argument '--fast' found\n\nUsage: acme build [OPTIONS]"
	for _, tc := range []struct {
		name     string
		steps    []step
		proposed bool
	}{
		{"fixed at once", []step{run("acme build --fast", 2, bad), run("acme build", 0, "built")}, true},
		{"fixed after another try", []step{
			run("acme build --fast", 2, bad),
			run("ACME_FAST=1 acme build", 1, "error: config: no such profile 'fast'"),
			run("acme build --release", 0, "built"),
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := lessons.DefaultConfig()
			var got []string
			for _, c := range scanned(t, tc.steps, tc.steps) {
				if c.Confidence >= cfg.MinConfidence {
					got = append(got, c.Kind+": "+c.Summary)
				}
				if !tc.proposed && len(c.Triggers.Errors) > 0 && !c.Reminder(cfg) {
					t.Errorf("%s %q: not said after its error either", c.Kind, c.Summary)
				}
			}
			if (len(got) > 0) != tc.proposed {
				t.Errorf("proposed %q, want proposed: %v", got, tc.proposed)
			}
		})
	}
}

// TestRetryOfOperandsHeldBack: a type check fails for want of its
// config; in one history the agent names the files to check, in another
// it passes the config by its option. Naming files is that task's: held
// back until another session does the same; the option is a way of
// calling the checker, said after the error from its first session.
func TestRetryOfOperandsHeldBack(t *testing.T) {
	for fixed, proposed := range map[string]bool{
		"npx tsc --noEmit src/cart.ts src/order.ts": false,
		"npx tsc --noEmit -p app/tsconfig.json":     true,
	} {
		cs := scanned(t, []step{
			run("npx tsc --noEmit", 1, "error TS5058: The specified path does not exist: 'tsconfig.json'."),
			run(fixed, 0, ""),
		})
		said := slices.ContainsFunc(cs, func(c Candidate) bool { return c.Kind == KindRetry && c.Reminder(lessons.DefaultConfig()) })
		if said != proposed {
			t.Errorf("%q: retry said after the error %v, want %v", fixed, said, proposed)
		}
	}
}

// TestAfterTheWorkIsAReminder: a lesson on an error of the work's own
// command, and a known failure of any kind (a check, a refusal, a
// server's answer, a server out of reach), are said after their failure
// but never proposed, however often seen and whatever fixed them; a
// lesson on a refusal of the environment, or one a sandbox setting got
// past, is proposed.
func TestAfterTheWorkIsAReminder(t *testing.T) {
	w, cfg := DefaultWeights(), lessons.DefaultConfig()
	errTrigger := lessons.Trigger{Tools: []string{"Bash"}, Errors: []string{"x"}}
	for _, tc := range []struct {
		name     string
		c        Candidate
		proposed bool
	}{
		{"an error of the work", Candidate{Kind: KindError, Tool: "Bash", Problem: "go: updates to go.mod needed", Fixed: "go mod download"}, false},
		{"the network refused", Candidate{Kind: KindError, Tool: "Bash", Problem: "dial tcp: lookup proxy.golang.org: no such host", Fixed: "go build"}, true},
		{"the sandbox got past", Candidate{Kind: KindError, Tool: "Bash", Problem: "listen on 127.0.0.1:8080 failed", Fixed: "npm start", Signals: Signals{Sandboxed: true}}, true},
		{"a check on the checkout", Candidate{Kind: KindKnown, Tool: "Bash", Problem: "FAILED tests/test_tz.py::test_paris"}, false},
		{"a permission refusal", Candidate{Kind: KindKnown, Tool: "Bash", Problem: "This command requires approval"}, false},
		{"a file tool's refusal", Candidate{Kind: KindKnown, Tool: "Read", Problem: "EPERM: operation not permitted, open '/home/u/.ssh/config'"}, false},
		{"a server's answer", Candidate{Kind: KindKnown, Tool: "mcp__github__issue_write", Problem: "Validation Failed: label does not exist"}, false},
		{"a server out of reach", Candidate{Kind: KindKnown, Tool: "mcp__github__issue_write", Problem: "getaddrinfo ENOTFOUND api.github.com"}, false},
	} {
		c := tc.c
		c.Status, c.Triggers, c.Sessions = StatusNew, errTrigger, []string{"s1", "s2", "s3", "s4"}
		c.Signals.FixConfirmed = c.Fixed != ""
		w.Score(&c)
		if got := c.Confidence >= cfg.MinConfidence; got != tc.proposed || !c.Reminder(cfg) {
			t.Errorf("%s: confidence %.2f, reminder %v: want proposed %v, and said after the failure", tc.name, c.Confidence, c.Reminder(cfg), tc.proposed)
		}
	}
}

// TestRetryOfTaskValuesHeldBack: a retry that added an operand the
// error did not print beside another change, or only dropped an option
// with its value, changed what the call works on: in one session it is
// held back, not even said after its error. One that only added words
// the error does not name (an option and its value, a variable) gave
// the call what it lacked, for every call or for this task only: in one
// session it is said after its error, not proposed. An option dropped
// with no value is a way of calling the command: said after its error
// too in one session, and proposed once it came back
// (TestProposedOnceTheFailureCameBack).
// (Where the error or the agent named what was added, the retry is
// proposed: TestSaidWhy, TestBypassIsNoFix, the labelled git push -u.)
func TestRetryOfTaskValuesHeldBack(t *testing.T) {
	for _, tc := range []struct {
		failed, out, fixed string
		proposed, said     bool
	}{
		{"gh run list --limit 5 --workflow tests.yaml", "could not find any workflows named tests.yaml", "gh run list --limit 5", false, false},
		{"./bin/report run", "error: missing required argument <name>", "./bin/report run nightly", false, false},
		{"./bin/deploy push", "error: invalid argument: a target is required", "./bin/deploy push --env staging", false, true},
		{"python3 report.py", "UnicodeEncodeError: 'charmap' codec can't encode character", "PYTHONIOENCODING=utf-8 python3 report.py", false, true},
		{"gh pr diff 12 --stat", "unknown flag: --stat", "gh pr diff 12", false, true},
	} {
		cs := scanned(t, []step{run(tc.failed, 1, tc.out), run(tc.fixed, 0, "ok")})
		c := find(cs, KindRetry, tc.failed)
		if c == nil {
			t.Fatalf("%q then %q: candidates %q, want a retry fix", tc.failed, tc.fixed, summaries(cs))
		}
		cfg := lessons.DefaultConfig()
		proposed := c.Confidence >= cfg.MinConfidence
		if said := proposed || c.Reminder(cfg); proposed != tc.proposed || said != tc.said {
			t.Errorf("%q then %q: proposed %v, said after the error %v; want %v, %v", tc.failed, tc.fixed, proposed, said, tc.proposed, tc.said)
		}
	}
}

// TestRefusedOperandsSaidAfter: cargo test refuses a second name filter;
// the retry dropped it. The command takes fewer operands whatever their
// names, so the lesson comes after the same refusal on other names; its
// words are the task's names, so it is never proposed, in one session or
// two.
func TestRefusedOperandsSaidAfter(t *testing.T) {
	for _, n := range []int{1, 2} {
		dir := t.TempDir()
		for i := range n {
			writeClaude(t, dir, "/p", fmt.Sprintf("s%d", i), []step{
				run("cargo test parse_alpha parse_beta", 1, "error: unexpected argument 'parse_beta' found\n\nUsage: cargo test [OPTIONS] [TESTNAME] [-- [ARGS]...]"),
				run("cargo test parse_alpha", 0, "test result: ok. 1 passed"),
			})
		}
		c := find(reaching(t, dir), KindRetry, "cargo test")
		if c == nil {
			t.Fatalf("%d sessions: no retry lesson said after the refusal", n)
		}
		if cfg := lessons.DefaultConfig(); c.Confidence >= cfg.MinConfidence {
			t.Errorf("%d sessions: proposed at %.2f; its words are the task's names", n, c.Confidence)
		}
		other := lessons.ToolCall{Tool: "Bash", Command: "cargo test render_one render_two", Error: "error: unexpected argument 'render_two' found"}
		if !fires(t, *c, other) {
			t.Errorf("%d sessions: silent after the same refusal of other names (triggers %+v)", n, c.Triggers)
		}
	}
}
