package engine

import (
	"slices"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

// Hazards act at the call: a hazard never comes up at a prompt, blocking
// or not, while a pitfall about the same subject does; nothing comes
// with promptLessons off, and a claimed lesson does not come again.
func TestPromptCandidatesKinds(t *testing.T) {
	pitfall := lesson("migrate-pitfall", lessons.Trigger{Keywords: []string{"schema migration", "alembic"}})
	pitfall.Summary = "alembic autogenerate misses renames in a schema migration"
	hazard := lesson("migrate-hazard", lessons.Trigger{Keywords: []string{"schema migration", "drop table"}})
	hazard.Summary = "a schema migration that drops a table destroys its data"
	hazard.Kind = lessons.KindHazard
	blocking := lesson("migrate-block", lessons.Trigger{Keywords: []string{"schema migration", "drop column"},
		Commands: []string{`DROP COLUMN`}})
	blocking.Summary = "DROP COLUMN in a schema migration destroys data"
	blocking.Block = true
	m := compileTest(t, pitfall, hazard, blocking)
	on := lessons.DefaultConfig()
	on.PromptLessons = "on"
	slugs := func(cfg lessons.Config, prompt string, claimed ...string) []string {
		cs, err := m.PromptCandidates(prompt, cfg, func(s string) bool { return slices.Contains(claimed, s) })
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, c.Slug)
		}
		return out
	}
	for _, p := range []string{"write a schema migration that drops the table", "drop column email in a schema migration", "alembic schema migration"} {
		got := slugs(on, p)
		if slices.Contains(got, "migrate-hazard") || slices.Contains(got, "migrate-block") {
			t.Errorf("%q brought %v: a hazard at a prompt", p, got)
		}
	}
	if got := slugs(on, "alembic schema migration"); !slices.Equal(got, []string{"migrate-pitfall"}) {
		t.Errorf("alembic prompt brought %v, want the pitfall", got)
	}
	if got := slugs(on, "alembic schema migration", "migrate-pitfall"); len(got) != 0 {
		t.Errorf("claimed pitfall came again: %v", got)
	}
	if got := slugs(lessons.DefaultConfig(), "alembic schema migration"); len(got) != 0 {
		t.Errorf("promptLessons off brought %v", got)
	}
}
