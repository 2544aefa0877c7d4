package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// merged wraps lessons as the active lessons of a project.
func merged(ls ...lessons.Lesson) scope.Merged {
	m := scope.Merged{Project: "/p", Config: lessons.DefaultConfig(), Stack: []string{"lang:go"}}
	for _, l := range ls {
		m.Active = append(m.Active, scope.Resolved{Lesson: l, Scope: lessons.ScopeGlobal, AllowBlock: true})
	}
	return m
}

func lesson(slug string, t lessons.Trigger) lessons.Lesson {
	return lessons.Lesson{
		ID: slug, Slug: slug, Summary: "summary of " + slug,
		Problem: "problem of " + slug, Solution: "solution of " + slug, Triggers: t,
	}
}

func compileTest(t testing.TB, ls ...lessons.Lesson) *Manifest {
	t.Helper()
	m, err := Compile(merged(ls...), scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Warnings(); len(w) > 0 {
		t.Fatalf("warnings: %v", w)
	}
	return m
}

func TestMatch(t *testing.T) {
	m := compileTest(t,
		lesson("force-push", lessons.Trigger{Commands: []string{`git push .*(-f|--force)\b`}, Unless: []string{`--force-with-lease`}}),
		lesson("py-edit", lessons.Trigger{Paths: []string{"*.py"}}),
		lesson("await", lessons.Trigger{Content: []string{`(?<!await )fetch\(`}, Paths: []string{"*.{js,ts}"}}),
		lesson("gh", lessons.Trigger{Tools: []string{"mcp__github__*"}}),
		lesson("pytest", lessons.Trigger{Commands: []string{`(?i)^pytest(?!.*-p no:cacheprovider)`}}),
		lesson("kw", lessons.Trigger{Keywords: []string{"docker"}}),
	)
	tests := []struct {
		call Call
		want []Hit
	}{
		{Call{Tool: "Bash", Command: "git push -f origin main"}, []Hit{{0, "commands"}}},
		{Call{Tool: "Bash", Command: "git push --force-with-lease"}, nil},
		{Call{Tool: "Bash", Command: "git status"}, nil},
		{Call{Tool: "Edit", Paths: []string{"/p/a.py"}}, []Hit{{1, "paths"}}},
		{Call{Tool: "Read", Paths: []string{"/p/a.py"}}, []Hit{{1, "paths"}}},
		{Call{Tool: "Bash", Command: "cat a.py"}, nil},
		{Call{Tool: "Write", Paths: []string{"/p/x.ts"}, Contents: []string{"const r = fetch(u)"}}, []Hit{{2, "paths+content"}}},
		{Call{Tool: "Write", Paths: []string{"/p/x.ts"}, Contents: []string{"const r = await fetch(u)"}}, nil},
		{Call{Tool: "Write", Paths: []string{"/p/x.go"}, Contents: []string{"fetch(u)"}}, nil},
		{Call{Tool: "mcp__github__create_issue"}, []Hit{{3, "tools"}}},
		{Call{Tool: "mcp__gitlab__create_issue"}, nil},
		{Call{Tool: "Bash", Command: "PYTEST tests/"}, []Hit{{4, "commands"}}},
		{Call{Tool: "Bash", Command: "Pytest tests/"}, []Hit{{4, "commands"}}},
		{Call{Tool: "Bash", Command: "pytest -p no:cacheprovider"}, nil},
	}
	for _, tt := range tests {
		var mt Matcher
		got, err := mt.Match(m, tt.call)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Match(%+v) = %v, %v; want %v", tt.call, got, err, tt.want)
		}
	}
}

func TestMatchLesson(t *testing.T) {
	l := lesson("x", lessons.Trigger{Commands: []string{`rm -rf \$\w+/`}})
	for _, tt := range []struct {
		c    lessons.ToolCall
		want bool
	}{
		{lessons.ToolCall{Command: "rm -rf $DIR/"}, true},
		{lessons.ToolCall{Command: "rm -rf ./build/"}, false},
		{lessons.ToolCall{Tool: "Write", Path: "/a", Content: "rm -rf $DIR/"}, false},
	} {
		if got, err := MatchLesson(&l, tt.c); got != tt.want || err != nil {
			t.Errorf("MatchLesson(%+v) = %v, %v; want %v", tt.c, got, err, tt.want)
		}
	}
}

// A pattern that explodes on a backtracking engine runs on the linear one
// when it can; one that needs backtracking (lookahead) times out alone.
func TestBacktrackingBounded(t *testing.T) {
	m := compileTest(t, lesson("nested", lessons.Trigger{Commands: []string{`^(a+)+$`}}),
		lesson("evil", lessons.Trigger{Commands: []string{`(?=a)^(a+)+$`}}),
		lesson("fine", lessons.Trigger{Commands: []string{`a{10}`}}))
	var mt Matcher
	start := time.Now()
	hits, err := mt.Match(m, Call{Tool: "Bash", Command: strings.Repeat("a", 30000) + "!"})
	elapsed := time.Since(start)
	t.Logf("bounded in %v", elapsed)
	if elapsed > 3*lessons.PatternTimeout { // a spurious timeout is tried again
		t.Errorf("Match took %v, want about %v", elapsed, lessons.PatternTimeout)
	}
	if err == nil || !strings.Contains(err.Error(), "evil") || strings.Contains(err.Error(), "nested") {
		t.Errorf("err = %v, want a timeout naming the lookahead lesson only", err)
	}
	if !reflect.DeepEqual(hits, []Hit{{2, "commands"}}) {
		t.Errorf("hits = %v, want the other lesson", hits)
	}
}

// Many backtracking patterns cannot add up past CallBudget in one call:
// once it is spent, the rest are skipped and said to be.
func TestCallBudget(t *testing.T) {
	var ls []lessons.Lesson
	for i := range 30 {
		ls = append(ls, lesson(fmt.Sprintf("evil-%d", i), lessons.Trigger{Commands: []string{fmt.Sprintf(`(?=a)^(a+)+b{0,%d}$`, i+1)}}))
	}
	m := compileTest(t, ls...)
	var mt Matcher
	start := time.Now()
	_, err := mt.Match(m, Call{Tool: "Bash", Command: strings.Repeat("a", 30000) + "!"})
	elapsed := time.Since(start)
	if limit := CallBudget + 2*lessons.PatternTimeout; elapsed > limit {
		t.Errorf("30 backtracking patterns took %v, want at most %v", elapsed, limit)
	}
	if mt.Counters.TimedOut != 30 || !strings.Contains(fmt.Sprint(err), "spent its") {
		t.Errorf("timed out %d of 30, err %v", mt.Counters.TimedOut, err)
	}
}

// agreementPatterns mix literals, alternations, classes, repeats, case
// folding and lookaround, over a small vocabulary so inputs often match.
var agreementPatterns = []string{
	`git push`, `git\s+push\s+(-f|--force)`, `(?i)GIT (push|pull)`, `rm -rf (?!/tmp)`,
	`(?<=sudo )rm`, `^npm (i|install)\b`, `pip install(?! -e)`, `(ab)+c`, `[Pp]ush`,
	`docker (build|run) .*-t`, `(?i)^pytest(?=.* -k)`, `\bsed -i\b(?! '')`, `x{2,3}y`,
	`(?:foo|bar)baz`, `a.c`, `(?i)(?<!no)push`, `--force(?!-with-lease)`, `\$\{?HOME`,
	`(rm|mv) -[a-z]*r`, `(?=.*push)git`, `fetch\(`, `await\s+\w+`, `\d+\.\d+`,
}

var vocabulary = []string{
	"git", "push", "pull", "-f", "--force", "--force-with-lease", "rm", "-rf", "/tmp", "sudo",
	"npm", "i", "install", "pip", "-e", "ab", "abc", "c", "Push", "PUSH", "GIT", "docker", "build",
	"run", "-t", "pytest", "-k", "sed", "-i", "''", "xx", "xxxy", "y", "foo", "barbaz", "foobaz",
	"a", "abc", "no", "nopush", "$HOME", "${HOME}", "mv", "-vr", "fetch(", "await", "x", "1.2", "\n",
}

func TestPrefilterAgreesWithBruteForce(t *testing.T) {
	var ls []lessons.Lesson
	for i, p := range agreementPatterns {
		ls = append(ls,
			lesson(fmt.Sprintf("cmd-%d", i), lessons.Trigger{Commands: []string{p}}),
			lesson(fmt.Sprintf("content-%d", i), lessons.Trigger{Content: []string{p}}),
			lesson(fmt.Sprintf("unless-%d", i), lessons.Trigger{Tools: []string{"Bash", "Write"}, Unless: []string{p}}))
	}
	m := compileTest(t, ls...)
	rng := rand.New(rand.NewPCG(1, 2))
	words := func() string {
		n := 1 + rng.IntN(6)
		var b strings.Builder
		for i := range n {
			if i > 0 && rng.IntN(4) > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocabulary[rng.IntN(len(vocabulary))])
		}
		return b.String()
	}
	fast, brute := Matcher{}, Matcher{Brute: true}
	matched := 0
	for range 5000 {
		call := Call{Tool: "Bash", Command: words()}
		if rng.IntN(2) == 0 {
			call = Call{Tool: "Write", Paths: []string{"/p/f"}, Contents: []string{words(), words()}}
		}
		got, err1 := fast.Match(m, call)
		want, err2 := brute.Match(m, call)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Match(%+v) = %v with prefilters, %v without", call, got, want)
		}
		for _, h := range got {
			if h.Kinds != "tools" {
				matched++
			}
		}
	}
	if matched < 5000 {
		t.Errorf("only %d matches: the inputs do not exercise the patterns", matched)
	}
	if fast.Counters.Run >= brute.Counters.Run/2 {
		t.Errorf("prefilters saved little: %v vs brute %v", fast.Counters, brute.Counters)
	}
	t.Logf("prefiltered: %v", fast.Counters)
	t.Logf("brute force: %v", brute.Counters)
}

// A blocking lesson that cannot be checked in time, even on its second
// try, is a hit that asks a person; a lesson that only reminds is
// skipped as before.
func TestUndecidedBlockAsks(t *testing.T) {
	evil := lesson("evil-block", lessons.Trigger{Commands: []string{`(?=a)^(a+)+$`}})
	evil.Block, evil.BlockReason = true, "no {command}"
	m := compileTest(t, evil, lesson("evil-reminder", lessons.Trigger{Commands: []string{`(?=a)^(a+)+$`}}))
	var mt Matcher
	start := time.Now()
	hits, err := mt.Match(m, Call{Tool: "Bash", Command: strings.Repeat("a", 30000) + "!"})
	// a first try within CallBudget, a second within BlockBudget; the
	// limits are wall clock and overshoot on a machine busy with other
	// tests (3.1s seen under CI's parallel packages), so the bound is
	// theirs plus slack, still well before the hook's 6s watchdog
	if d := time.Since(start); d > CallBudget+BlockBudget+2*time.Second {
		t.Errorf("Match took %v, want about CallBudget+BlockBudget (%v)", d, CallBudget+BlockBudget)
	}
	if !errors.Is(err, ErrTimeout) || !reflect.DeepEqual(hits, []Hit{{0, Undecided}}) {
		t.Fatalf("hits %v, err %v: want the blocking lesson undecided and the reminder skipped", hits, err)
	}
	e, _ := m.Entry(0)
	c := hits[0].candidate(e)
	if !c.Block || c.Decision != lessons.DecisionAsk || !strings.Contains(c.Reason("x"), "a person must approve") {
		t.Errorf("candidate = %+v, want a block that asks and says why", c.Entry)
	}
}
