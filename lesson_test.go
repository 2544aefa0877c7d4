package lessons

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestToolCallJSON(t *testing.T) {
	var ex Examples
	in := `{"match":["git push -f",{"tool":"Edit","path":"a.py","content":"x"}]}`
	if err := json.Unmarshal([]byte(in), &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Match[0] != (ToolCall{Tool: "Bash", Command: "git push -f"}) {
		t.Errorf("plain string = %+v, want a Bash command", ex.Match[0])
	}
	if ex.Match[1].Tool != "Edit" || ex.Match[1].Path != "a.py" {
		t.Errorf("map = %+v", ex.Match[1])
	}
	out, _ := json.Marshal(ex)
	if string(out) != in {
		t.Errorf("round trip = %s, want %s", out, in)
	}
}

func TestValidate(t *testing.T) {
	good := Lesson{
		Summary:  "pytest hangs when a test waits for input",
		Problem:  "A test calling input() blocks forever without a TTY.",
		Solution: "Run pytest with stdin closed: pytest < /dev/null.",
		Triggers: Trigger{Commands: []string{`\bpytest\b`}},
		Examples: Examples{Match: []ToolCall{{Command: "pytest"}}},
	}
	if ps := Validate(&good); len(ps) != 0 {
		t.Fatalf("good lesson: %v", ps)
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Lesson)
		field string
	}{
		{"bad regex", func(l *Lesson) { l.Triggers.Commands = []string{`(?<=x`} }, "triggers.commands[0]"},
		{"placeholder", func(l *Lesson) { l.Problem = "<what_went_wrong> happened here" }, "problem"},
		{"ellipsis", func(l *Lesson) { l.Summary = "pytest hangs when a test waits..." }, "summary"},
		{"block without reason", func(l *Lesson) { l.Block = true }, "blockReason"},
		{"decision without block", func(l *Lesson) { l.Decision = DecisionAsk }, "decision"},
		{"bad tag", func(l *Lesson) { l.Tags = []string{"python"} }, "tags[0]"},
		{"no trigger", func(l *Lesson) { l.Triggers = Trigger{} }, "triggers"},
	} {
		l := good
		tc.edit(&l)
		errs := Errors(Validate(&l))
		if len(errs) != 1 || errs[0].Field != tc.field {
			t.Errorf("%s: Validate = %v, want one error on %s", tc.name, errs, tc.field)
		}
	}
}

func TestValidateWarnsUnknownTool(t *testing.T) {
	l := Lesson{Triggers: Trigger{Tools: []string{"Shell", "mcp__github__*", "Bash"}}}
	var warned []string
	for _, p := range Validate(&l) {
		if p.Warning && strings.HasPrefix(p.Field, "triggers.tools") {
			warned = append(warned, p.Field)
		}
	}
	if len(warned) != 1 || warned[0] != "triggers.tools[0]" {
		t.Errorf("warnings on %v, want only triggers.tools[0]", warned)
	}
}

func TestProbeBacktracking(t *testing.T) {
	if err := ProbeBacktracking(`^(a+)+$`); err == nil {
		t.Error("(a+)+$ passed the probe")
	}
	if err := ProbeBacktracking(`git\s+push\b(?!.*--force-with-lease)`); err != nil {
		t.Errorf("a sane pattern failed the probe: %v", err)
	}
}

func TestReasonCutsCommand(t *testing.T) {
	l := Lesson{BlockReason: "Refused `{command}`."}
	got := l.Reason(strings.Repeat("x", 500))
	if n := len([]rune(got)); n != len("Refused ``.")+120 {
		t.Errorf("reason has %d runes, want the command cut to 120", n)
	}
}

func TestSimilarity(t *testing.T) {
	a := Lesson{Problem: "pytest hangs waiting for stdin input", Solution: "close stdin with < /dev/null"}
	b := a
	if Similarity(&a, &b) != 1 {
		t.Error("identical lessons are not similarity 1")
	}
	c := Lesson{Problem: "docker build sends the whole context", Solution: "write a .dockerignore file"}
	if Similarity(&a, &c) >= NearDuplicateThreshold {
		t.Error("unrelated lessons look like near-duplicates")
	}
}

func TestScopeRank(t *testing.T) {
	order := []Scope{ScopeBuiltin, ScopeGlobal, PackScope("team"), ScopeProject}
	for i := 1; i < len(order); i++ {
		if order[i-1].Rank() >= order[i].Rank() {
			t.Errorf("%s does not rank below %s", order[i-1], order[i])
		}
	}
	if PackScope("team").Pack() != "team" || PackScope("team").Kind() != "pack" {
		t.Error("pack scope name or kind wrong")
	}
}

func TestImpliedTools(t *testing.T) {
	for _, tc := range []struct {
		trig Trigger
		want string
	}{
		{Trigger{Commands: []string{"x"}}, "Bash"},
		{Trigger{Content: []string{"x"}}, "Edit MultiEdit NotebookEdit Write"},
		{Trigger{Content: []string{"x"}, Paths: []string{"*.py"}}, "Edit MultiEdit NotebookEdit Write"},
		{Trigger{Commands: []string{"x"}, Paths: []string{"*.py"}}, ""}, // no call has both
		{Trigger{Tools: []string{"run_shell_command", "mcp__gh__*"}, Commands: []string{"x"}}, "Bash mcp__gh__*"},
		{Trigger{Keywords: []string{"x"}}, ""},
	} {
		if got := strings.Join(tc.trig.ImpliedTools(), " "); got != tc.want {
			t.Errorf("ImpliedTools(%+v) = %q, want %q", tc.trig, got, tc.want)
		}
	}
}

func TestGeminiSubagentToolIsTask(t *testing.T) {
	if got := CanonicalTool("invoke_agent"); got != "Task" {
		t.Errorf("CanonicalTool(invoke_agent) = %q, want Task", got)
	}
}

func TestEffectiveKind(t *testing.T) {
	for _, c := range []struct {
		l    Lesson
		want Kind
	}{
		{Lesson{}, KindPitfall},
		{Lesson{Block: true}, KindHazard},
		{Lesson{Kind: KindHazard}, KindHazard},
		{Lesson{Block: true, Kind: KindPitfall}, KindPitfall},
	} {
		if got := c.l.EffectiveKind(); got != c.want {
			t.Errorf("EffectiveKind(%+v) = %q, want %q", c.l, got, c.want)
		}
	}
	if ps := Errors(Validate(&Lesson{Summary: "s", Kind: "danger", Triggers: Trigger{Keywords: []string{"x"}}})); len(ps) != 1 || ps[0].Field != "kind" {
		t.Errorf("Validate(kind: danger) = %v, want one error on kind", ps)
	}
}

func TestValidateErrorLesson(t *testing.T) {
	l := Lesson{
		Summary:  "No module named X means the virtualenv is not active",
		Problem:  "The system python has none of the project's packages.",
		Solution: "Run the command through uv run.",
		Triggers: Trigger{Errors: []string{`No module named`}},
		Examples: Examples{Match: []ToolCall{{Command: "python app.py", Error: "No module named 'yaml'"}}},
	}
	if ps := Validate(&l); len(ps) != 0 {
		t.Fatalf("a lesson with errors only: %v", ps)
	}
	l.Block, l.BlockReason, l.Triggers.Keywords = true, "no", []string{"python"}
	l.Examples = Examples{}
	var warned []string
	for _, p := range Validate(&l) {
		if !p.Warning {
			t.Errorf("error %v, want warnings only", p)
		}
		warned = append(warned, p.Field)
	}
	if strings.Join(warned, " ") != "block triggers examples.match" {
		t.Errorf("warnings on %v, want block, triggers and examples.match", warned)
	}
	l.Triggers.Errors = []string{`(`}
	if errs := Errors(Validate(&l)); len(errs) != 1 || errs[0].Field != "triggers.errors[0]" {
		t.Errorf("invalid error regex: %v", errs)
	}
}

// A pitfall's addresses are regexes: one that does not compile is an
// error naming it, and on a lesson on an error they say nothing (it
// addresses the failure it matched), so they are warned about.
func TestValidateAddresses(t *testing.T) {
	l := Lesson{
		Summary:   "jest --watch never exits in an agent shell",
		Problem:   "Watch mode waits for file changes forever.",
		Solution:  "Run the suite once with CI=true.",
		Addresses: []string{`timed out after`, `(`},
		Triggers:  Trigger{Commands: []string{`jest\s.*--watch`}},
		Examples:  Examples{Match: []ToolCall{{Command: "npx jest --watch"}}},
	}
	if errs := Errors(Validate(&l)); len(errs) != 1 || errs[0].Field != "addresses[1]" {
		t.Errorf("invalid addresses regex: %v", errs)
	}
	l.Addresses = l.Addresses[:1]
	if ps := Validate(&l); len(ps) != 0 {
		t.Errorf("a pitfall naming the failure it addresses: %v", ps)
	}
	l.Triggers = Trigger{Errors: []string{`Watch Usage`}}
	l.Examples = Examples{Match: []ToolCall{{Command: "npx jest --watch", Error: "Watch Usage"}}}
	if ps := Validate(&l); len(ps) != 1 || !ps[0].Warning || ps[0].Field != "addresses" {
		t.Errorf("addresses on a lesson on an error: %v", ps)
	}
}
