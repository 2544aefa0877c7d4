package scope

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

// reminder is a lesson on an error, as a reminder comes: it speaks only
// after a failed call whose error it names.
func reminder(dir, id, slug string, conf float64) Resolved {
	r := lesson(dir, id, slug)
	r.Confidence = conf
	r.Triggers.Errors = []string{`no\s+such\s+table`}
	r.Examples = lessons.Examples{Match: []lessons.ToolCall{{Command: "pytest", Error: "no such table: orders"}}}
	return r
}

// TestMergeReminders: reminders rank above the built-ins and below every
// store a person writes, the config admits them at minErrorConfidence
// (a lesson before calls still needs minConfidence), they get the
// project Of was asked for, and a change where they are read makes the
// manifest stale.
func TestMergeReminders(t *testing.T) {
	f := newFixture(t)
	remDir := filepath.Join(f.d.State, "candidates")
	if err := os.MkdirAll(remDir, 0o755); err != nil {
		t.Fatal(err)
	}
	f.add(BuiltinDir, lesson(BuiltinDir, "B1", "shared-with-builtin"))
	f.add(f.d.GlobalLessons(), reminder(f.d.GlobalLessons(), "G1", "shared-with-global", 0.9))
	var asked []string
	rem := &Reminders{Dir: remDir, Of: func(project string, cfg lessons.Config) []Resolved {
		asked = append(asked, project)
		before := reminder(remDir, "R4", "before-calls", 0.45)
		before.Triggers.Errors = nil // a lesson before calls: minConfidence
		return []Resolved{
			reminder(remDir, "R1", "shared-with-builtin", 0.4),
			reminder(remDir, "R2", "shared-with-global", 0.4),
			reminder(remDir, "R3", "too-uncertain", 0.3),
			before,
		}
	}}
	m := merge(f.d, f.project, f.loader, rem, func(string) string { return "" })
	if !slices.Equal(asked, []string{f.project}) {
		t.Errorf("Of asked for %q, want the project once", asked)
	}
	if got, want := slugsOf(m.Active), []string{"global/shared-with-global", "learned/shared-with-builtin"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	r := reasons(m)
	for key, prefix := range map[string]string{
		"builtin/shared-with-builtin": "overridden by learned:",
		"learned/shared-with-global":  "overridden by global:",
		"learned/too-uncertain":       "confidence 0.3 < minErrorConfidence 0.4",
		"learned/before-calls":        "confidence 0.45 < minConfidence 0.5",
	} {
		if !strings.HasPrefix(r[key], prefix) {
			t.Errorf("reason of %s = %q, want prefix %q", key, r[key], prefix)
		}
	}
	for _, a := range m.Active {
		if a.Scope == lessons.ScopeLearned && a.AllowBlock {
			t.Errorf("%s may block; a reminder never does", a.Slug)
		}
	}
	if !Fresh(m.Sources) {
		t.Fatal("a manifest built just now is stale")
	}
	if err := os.WriteFile(filepath.Join(remDir, "new.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if Fresh(m.Sources) {
		t.Error("a new candidate file leaves the manifest fresh; want it stale")
	}
}
