package add

import (
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

func TestNewCmdAddFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var got *Options
	err := clitest.Run(NewCmdAdd(f, func(o *Options) error { got = o; return nil }),
		"--summary S --command a --command b --match m --no-match n --priority 7 --block --block-reason R --decision ask --project --force")
	if err != nil {
		t.Fatal(err)
	}
	v := got.Fields
	if v.Summary != "S" || len(v.Commands) != 2 || v.Priority != 7 || !v.Block || v.Decision != "ask" || !got.Project || !got.Force {
		t.Errorf("options %+v", got)
	}
	if err := clitest.Run(NewCmdAdd(f, func(*Options) error { return nil }), "--file x.yaml --summary S"); err == nil || !strings.Contains(err.Error(), "--file cannot be combined") {
		t.Errorf("--file with --summary: %v", err)
	}
}

func valid() *lessons.Lesson {
	l := &lessons.Lesson{
		Summary:  "terraform apply without a plan file applies whatever changed since",
		Problem:  "Running terraform apply directly re-plans and may apply changes nobody reviewed.",
		Solution: "Run terraform plan -out=tfplan, review it, then terraform apply tfplan.",
		Triggers: lessons.Trigger{Commands: []string{`\bterraform\s+apply\b`}, Unless: []string{`\.tfplan\b|\btfplan\b`}},
		Examples: lessons.Examples{
			Match:   []lessons.ToolCall{{Tool: "Bash", Command: "terraform apply"}},
			NoMatch: []lessons.ToolCall{{Tool: "Bash", Command: "terraform apply tfplan"}},
		},
	}
	cmdutil.CompleteLesson(l, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return l
}

func TestCheck(t *testing.T) {
	if _, err := check(valid(), ""); err != nil {
		t.Fatalf("valid lesson: %v", err)
	}
	cases := []struct {
		edit func(*lessons.Lesson)
		want string
	}{
		{func(l *lessons.Lesson) { l.Triggers.Commands = []string{"(?<=x"} }, "--command (triggers.commands[0]): invalid regex"},
		{func(l *lessons.Lesson) { l.Summary = "too short" }, "--summary"},
		{func(l *lessons.Lesson) { l.Summary = "terraform apply needs a reviewed plan file ..." }, `"..."`},
		{func(l *lessons.Lesson) { l.Problem = "It went wrong: <what_went_wrong> happened to us" }, "placeholder"},
		{func(l *lessons.Lesson) {
			l.Examples.Match = append(l.Examples.Match, lessons.ToolCall{Tool: "Bash", Command: "terraform plan"})
		}, `--match (examples.match[1]): "terraform plan": does not match`},
		{func(l *lessons.Lesson) {
			l.Examples.NoMatch = append(l.Examples.NoMatch, lessons.ToolCall{Tool: "Bash", Command: "terraform apply -auto-approve"})
		}, `--no-match (examples.noMatch[1]): "terraform apply -auto-approve": matches, but should not`},
	}
	for _, c := range cases {
		l := valid()
		c.edit(l)
		_, err := check(l, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check: %v, want %q", err, c.want)
		}
	}
	l := valid()
	l.Triggers.Tools = []string{"Bash", "Shell"}
	if warnings, err := check(l, ""); err != nil || len(warnings) == 0 || !strings.Contains(warnings[0], "--tool") {
		t.Errorf("unknown tool: warnings %v, error %v", warnings, err)
	}
}

// TestCheckNew: a lesson is refused when it repeats one, exactly or in
// other words on the same calls; one that fires on the same calls but
// says something else is written, with a note.
func TestCheckNew(t *testing.T) {
	existing := scope.Resolved{Lesson: *valid(), Scope: lessons.ScopeGlobal, Path: "g/tf.yaml"}
	existing.Slug = "terraform-plan-first"
	m := scope.Merged{Active: []scope.Resolved{existing}}

	if _, err := cmdutil.CheckNew(valid(), m, false); err == nil || !strings.Contains(err.Error(), "exactly what terraform-plan-first") {
		t.Errorf("exact duplicate: %v", err)
	}
	near := valid()
	near.Solution = "Always run terraform plan -out=tfplan, review it, then terraform apply tfplan please."
	cmdutil.CompleteLesson(near, time.Now())
	if _, err := cmdutil.CheckNew(near, m, false); err == nil || !strings.Contains(err.Error(), "repeats terraform-plan-first") || !strings.Contains(err.Error(), "% of the words") {
		t.Errorf("near duplicate: %v", err)
	}
	if _, err := cmdutil.CheckNew(near, m, true); err != nil {
		t.Errorf("near duplicate with --force: %v", err)
	}
	// The same calls, another mistake: written, with a note on which
	// lesson comes first and how to change it.
	other := valid()
	other.Summary = "terraform apply in this repository must target one module at a time"
	other.Problem, other.Solution = "The root module holds every environment, so a plain apply locks all their states for minutes.", "Pass -target=module.NAME for the one module you changed."
	other.Priority = 6
	cmdutil.CompleteLesson(other, time.Now())
	notes, err := cmdutil.CheckNew(other, m, false)
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "terraform-plan-first (global, g/tf.yaml) fires on the same calls") ||
		!strings.Contains(notes[0], "both inject together, "+other.Slug+" first (priority 5, this one 6)") || !strings.Contains(notes[0], "to put terraform-plan-first first, lower this one's priority below 5 (lessons edit "+other.Slug+")") {
		t.Errorf("another mistake on the same calls: %v, %q", err, notes)
	}
	// The same words on other calls: written, with a note.
	docker := valid()
	docker.Solution = near.Solution
	docker.Triggers = lessons.Trigger{Commands: []string{`\bdocker\s+build\b`}}
	docker.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: "docker build ."}}}
	cmdutil.CompleteLesson(docker, time.Now())
	if notes, err := cmdutil.CheckNew(docker, m, false); err != nil || len(notes) != 1 || !strings.Contains(notes[0], "says much the same") {
		t.Errorf("the same words on other calls: %v, %q", err, notes)
	}
}

func TestDraftKeepsLinesAndFillsIDAndSlug(t *testing.T) {
	file := "summary: terraform apply without a plan file applies whatever changed\nproblem: x\n"
	data, drafted := draft([]byte(file))
	if !drafted || !strings.HasPrefix(string(data), file) || !strings.Contains(string(data), "\nid: ") {
		t.Errorf("draft = %q, %v", data, drafted)
	}
	withBoth := "id: 01JD6V7Q8YB3K0ZP2M4N5R6S7T\nslug: mine\n"
	if data, drafted := draft([]byte(withBoth)); drafted || string(data) != withBoth {
		t.Errorf("draft of a complete file = %q, %v", data, drafted)
	}
	raw, _ := draft([]byte(`summary: terraform apply without a plan file applies whatever changed
problem: Running terraform apply directly re-plans and may apply changes nobody reviewed.
solution: Run terraform plan -out=tfplan, review it, then terraform apply tfplan.
triggers:
  commands: ['\bterraform\s+apply\b']
`))
	if _, err := repo.ParseLesson("new.yaml", raw); err != nil {
		t.Errorf("a drafted file does not parse: %v", err)
	}
}

func TestPromptsForMissingFields(t *testing.T) {
	ios, in, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStderrTTY(true)
	in.WriteString("too short\n" +
		"terraform apply without a plan file applies whatever changed\n" +
		"Running terraform apply directly re-plans and may apply changes nobody reviewed.\n" +
		"Run terraform plan -out=tfplan, review it, then terraform apply tfplan.\n" +
		"(unclosed\n" +
		`\bterraform\s+apply\b` + "\n" +
		"terraform apply\n")
	opts := &Options{IO: ios}
	l, err := opts.fromFlags()
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.HasPrefix(l.Summary, "terraform apply without") || len(l.Triggers.Commands) != 1 || len(l.Examples.Match) != 1 {
		t.Errorf("lesson from prompts: %+v", l)
	}
	if !strings.Contains(errOut.String(), "at least 20 characters") {
		t.Errorf("the short summary was not asked again:\n%s", errOut)
	}

	ios, _, _, _ = iostreams.Test()
	if _, err := (&Options{IO: ios}).fromFlags(); err == nil || !strings.Contains(err.Error(), "missing --summary, --problem, --solution") {
		t.Errorf("no terminal and no flags: %v", err)
	}
}
