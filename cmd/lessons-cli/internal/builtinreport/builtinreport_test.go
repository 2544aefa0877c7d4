package builtinreport

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/scope"
)

// root is the repository root, seen from this package.
const root = "../../../.."

// TestReportIsFresh regenerates docs/builtins.md from the built-ins and
// ../shared and fails when the checked-in copy differs: a built-in changed
// without its figures.
func TestReportIsFresh(t *testing.T) {
	shared := filepath.Join(root, "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "team-history")); err != nil {
		t.Skip("../shared is absent: the report cannot be regenerated here")
	}
	mg, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Measure(context.Background(), mg, SharedHistories(shared))
	if err != nil {
		t.Fatal(err)
	}
	opt, err := OptIn()
	if err != nil {
		t.Fatal(err)
	}
	optMs, err := Measure(context.Background(), opt, SharedHistories(shared))
	if err != nil {
		t.Fatal(err)
	}
	got := Markdown(mg.Active, ms, opt.Active, optMs, DefaultGate)
	want, err := os.ReadFile(filepath.Join(root, "docs", "builtins.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/builtins.md is stale; regenerate it with\n  go run ./cmd/lessons-cli/internal/builtinreport/gen -write docs/builtins.md")
	}
}

func measured(name string, sessions, calls, injections int, ls ...replay.LessonReport) Measured {
	return Measured{History: History{Name: name}, Report: &replay.Report{Sessions: sessions, Calls: calls, Injections: injections,
		InjectionsPer100: float64(injections) * 100 / float64(calls), Lessons: ls}}
}

func TestGateCheck(t *testing.T) {
	kinds := map[string]lessons.Kind{"noisy": lessons.KindPitfall, "useful": lessons.KindPitfall, "guard": lessons.KindHazard, "rare": lessons.KindPitfall}
	tests := []struct {
		name string
		ms   []Measured
		want []string // substrings, one per expected verdict line
	}{
		{"passes", []Measured{measured("h", 100, 1000, 5,
			replay.LessonReport{Slug: "useful", Fires: 30, FiresAddressing: 4, Sessions: 5},
			replay.LessonReport{Slug: "guard", Fires: 40, Asked: 40, Sessions: 8},
			replay.LessonReport{Slug: "rare", Fires: 19, Sessions: 3})}, nil},
		{"too many injections", []Measured{measured("h", 100, 1000, 11)}, []string{"h: 1.10 built-in injections"}},
		{"pitfall under the floor, pooled over histories", []Measured{
			measured("a", 100, 1000, 1, replay.LessonReport{Slug: "noisy", Fires: 10, FiresAddressing: 1, Sessions: 5}),
			measured("b", 100, 1000, 1, replay.LessonReport{Slug: "noisy", Fires: 12, Sessions: 5}),
		}, []string{"noisy: pitfall with 22 fires and precision 0.05"}},
		{"pitfall in too many sessions", []Measured{measured("h", 40, 1000, 1,
			replay.LessonReport{Slug: "rare", Fires: 6, Sessions: 6})}, []string{"h: pitfall rare fires in 15% of sessions"}},
		{"a hazard is not judged by precision", []Measured{measured("h", 40, 1000, 1,
			replay.LessonReport{Slug: "guard", Fires: 30, Sessions: 30})}, nil},
	}
	for _, tt := range tests {
		got := DefaultGate.Check(tt.ms, kinds)
		if len(got) != len(tt.want) {
			t.Errorf("%s: Check = %q, want %d lines", tt.name, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: Check[%d] = %q, want it to contain %q", tt.name, i, got[i], w)
			}
		}
	}
}

// TestMarkdownNamesEveryBuiltin: a lesson that never fired is still in the
// report, so the report accounts for all of them.
func TestMarkdownNamesEveryBuiltin(t *testing.T) {
	mg, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	opt, err := OptIn()
	if err != nil {
		t.Fatal(err)
	}
	if len(opt.Active) == 0 {
		t.Fatal("OptIn holds no lesson of the packs shipped with the binary")
	}
	h := []Measured{measured("h", 10, 100, 0)}
	md := string(Markdown(mg.Active, h, opt.Active, h, DefaultGate))
	for _, r := range append(mg.Active, opt.Active...) {
		if !strings.Contains(md, "`"+r.Slug+"`") {
			t.Errorf("report does not name %s", r.Slug)
		}
	}
	if i := slices.IndexFunc(mg.Active, func(r0 scope.Resolved) bool { return r0.Scope != lessons.ScopeBuiltin }); i >= 0 {
		t.Errorf("Builtins holds %s of scope %s", mg.Active[i].Slug, mg.Active[i].Scope)
	}
}

// TestOptInLessonsHold: the lessons of the packs shipped with the binary
// are held to the built-ins' standard, though lessons test only runs the
// built-in store: they load, declare a kind, and their examples behave.
func TestOptInLessonsHold(t *testing.T) {
	opt, err := OptIn()
	if err != nil {
		t.Fatal(err)
	}
	if len(opt.Active) < len(scope.BuiltinPacks()) {
		t.Fatalf("%d opt-in lessons in %d packs", len(opt.Active), len(scope.BuiltinPacks()))
	}
	for _, r := range opt.Active {
		if r.Kind == "" {
			t.Errorf("%s declares no kind", r.Path)
		}
		if n, fails := cmdutil.CheckExamples(&r.Lesson); n == 0 || len(fails) > 0 {
			t.Errorf("%s: %d examples, failing: %v", r.Path, n, fails)
		}
	}
}
