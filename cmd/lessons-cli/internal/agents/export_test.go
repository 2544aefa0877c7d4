package agents

import (
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/scope"
)

func exportLessons() []scope.Resolved {
	push := clitest.Resolved(lessons.ScopeGlobal, "git-push-force", `git\s+push\b.*--force`)
	push.Tags, push.Priority, push.Block, push.BlockReason = []string{"tool:git"}, 9, true, "Refused `{command}`: use --force-with-lease."
	amend := clitest.Resolved(lessons.ScopeBuiltin, "git-amend-pushed", `git\s+commit\s+--amend`)
	amend.Tags = []string{"tool:git", "severity:high"}
	env := clitest.Resolved(lessons.ScopeProject, "dotenv-secrets", "")
	env.Triggers = lessons.Trigger{Tools: []string{"Read"}, Paths: []string{".env*"}}
	return []scope.Resolved{amend, env, push}
}

func TestSection(t *testing.T) {
	got := Section(exportLessons())
	for _, want := range []string{
		SectionBegin + "\n## Lessons learned\n",
		"### Lesson git-push-force says something useful\n\n**Refused by the lessons hook:** Refused `…`: use --force-with-lease.\n\nThe problem of git-push-force",
		"_Applies to: commands matching `git\\s+push\\b.*--force`_",
		"_Applies to: Read; files `.env*`_",
		SectionEnd + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "git-push-force") > strings.Index(got, "git-amend-pushed") {
		t.Error("the priority 9 lesson is not first")
	}
}

func TestMergeSection(t *testing.T) {
	section := Section(exportLessons())
	for _, tt := range []struct{ name, file, want string }{
		{"new file", "", section},
		{"appended", "# Repo\n\nRun make.\n", "# Repo\n\nRun make.\n\n" + section},
		{"no final newline", "# Repo", "# Repo\n\n" + section},
		{"replaced in place", "# Repo\n\n<!-- lessons:begin old -->\nold text\n" + SectionEnd + "\n\n## Style\nTabs.\n",
			"# Repo\n\n" + section + "\n## Style\nTabs.\n"},
	} {
		got := string(MergeSection([]byte(tt.file), section))
		if got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
		if again := string(MergeSection([]byte(got), section)); again != got {
			t.Errorf("%s: a second merge changed the file:\n%s", tt.name, again)
		}
	}
}

func TestCursorRule(t *testing.T) {
	got := string(CursorRule(exportLessons()))
	if !strings.HasPrefix(got, "---\ndescription: Lessons learned") || !strings.Contains(got, "\nalwaysApply: true\n---\n") {
		t.Errorf("front matter:\n%s", got)
	}
	if !IsGenerated([]byte(got)) {
		t.Error("the rule is not marked as generated")
	}
}

func TestSkills(t *testing.T) {
	skills := Skills(exportLessons())
	var names []string
	for _, s := range skills {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "lessons-git lessons-read" {
		t.Fatalf("skills %v", names)
	}
	git := string(skills[0].Text)
	want := "---\nname: lessons-git\ndescription: \"2 lessons learned from past mistakes with git. Read before using git: running its commands or editing the files it reads.\"\ncommands:\n  - \"git\\\\s+push\\\\b.*--force\"\n  - \"git\\\\s+commit\\\\s+--amend\"\n---\n" + generatedMark + "\n# Lessons for git\n\n## Lesson: Lesson git-push-force"
	if !strings.HasPrefix(git, want) {
		t.Errorf("SKILL.md starts:\n%s\nwant\n%s", git, want)
	}
}
