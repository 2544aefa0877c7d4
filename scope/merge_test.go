package scope

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

// fakeLoader serves lessons and configs from memory, keyed by directory
// and by config path.
type fakeLoader struct {
	lessons map[string][]Resolved
	errs    map[string][]error
	configs map[string]lessons.Config
}

func (f fakeLoader) Lessons(s Store) ([]Resolved, []error) {
	return f.lessons[s.Dir], f.errs[s.Dir]
}

func (f fakeLoader) Config(path string) (lessons.Config, error) {
	return f.configs[path], nil
}

// lesson returns a valid lesson at dir/slug.yaml.
func lesson(dir, id, slug string) Resolved {
	return Resolved{
		Lesson: lessons.Lesson{
			ID: id, Slug: slug,
			Summary:  "Summary of " + slug + " that is long enough",
			Problem:  "The problem of " + slug + " is described here",
			Solution: "The solution to " + slug + " is described here",
			Triggers: lessons.Trigger{Commands: []string{"pytest"}},
			Examples: lessons.Examples{Match: []lessons.ToolCall{{Command: "pytest"}}},
		},
		Path: filepath.Join(dir, slug+".yaml"),
	}
}

type fixture struct {
	d       Dirs
	project string
	outside string
	loader  fakeLoader
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{
		d:       Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache"), State: filepath.Join(root, "state")},
		project: filepath.Join(root, "proj"),
		outside: filepath.Join(root, "elsewhere"),
		loader:  fakeLoader{lessons: map[string][]Resolved{}, errs: map[string][]error{}, configs: map[string]lessons.Config{}},
	}
	for _, dir := range []string{filepath.Join(f.project, ProjectDirName), filepath.Join(f.project, "sub"), f.outside} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) projectDir() string { return filepath.Join(f.project, ProjectDirName) }

func (f *fixture) add(dir string, rs ...Resolved) {
	f.loader.lessons[dir] = append(f.loader.lessons[dir], rs...)
}

func (f *fixture) merge(cwd string) Merged {
	return merge(f.d, FindProject(cwd), f.loader, nil, func(string) string { return "" })
}

func slugsOf(rs []Resolved) []string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r.Scope)+"/"+r.Slug)
	}
	slices.Sort(out)
	return out
}

func find(m Merged, slug string) Resolved {
	for _, r := range m.Active {
		if r.Slug == slug {
			return r
		}
	}
	return Resolved{}
}

func reasons(m Merged) map[string]string {
	out := map[string]string{}
	for _, e := range m.Excluded {
		out[string(e.Scope)+"/"+e.Slug] = e.Reason
	}
	return out
}

func TestMergePrecedenceBySlug(t *testing.T) {
	f := newFixture(t)
	f.add(BuiltinDir, lesson(BuiltinDir, "B1", "a"), lesson(BuiltinDir, "B2", "b"), lesson(BuiltinDir, "B3", "c"))
	f.add(f.d.GlobalLessons(), lesson(f.d.GlobalLessons(), "G1", "a"), lesson(f.d.GlobalLessons(), "G2", "b"))
	f.add(f.projectDir(), lesson(f.projectDir(), "P1", "b"))

	m := f.merge(filepath.Join(f.project, "sub"))
	if m.Project != f.project {
		t.Fatalf("Project = %q, want %q", m.Project, f.project)
	}
	want := []string{"builtin/c", "global/a", "project/b"}
	if got := slugsOf(m.Active); !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	r := reasons(m)
	for key, prefix := range map[string]string{
		"builtin/a": "overridden by global:",
		"builtin/b": "overridden by global:",
		"global/b":  "overridden by project:" + filepath.Join(f.projectDir(), "b.yaml"),
	} {
		if !strings.HasPrefix(r[key], prefix) {
			t.Errorf("reason of %s = %q, want prefix %q", key, r[key], prefix)
		}
	}
	p := find(m, "b")
	if p.Scope != lessons.ScopeProject || len(p.Overrides) != 1 || !strings.HasPrefix(p.Overrides[0], "global:") {
		t.Errorf("Lookup(b) = %s with Overrides %v, want project overriding global", p.Scope, p.Overrides)
	}
}

func TestMergeOverrideByID(t *testing.T) {
	f := newFixture(t)
	f.add(BuiltinDir, lesson(BuiltinDir, "SAME", "old-name"))
	f.add(f.d.GlobalLessons(), lesson(f.d.GlobalLessons(), "SAME", "new-name"))
	m := f.merge(f.outside)
	if got, want := slugsOf(m.Active), []string{"global/new-name"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	if r := reasons(m)["builtin/old-name"]; !strings.HasPrefix(r, "overridden by global:") {
		t.Errorf("reason = %q, want overridden by global", r)
	}
}

func TestMergeOverridesTwoLowerLessons(t *testing.T) {
	f := newFixture(t)
	f.add(BuiltinDir, lesson(BuiltinDir, "ID1", "x"), lesson(BuiltinDir, "ID2", "y"))
	f.add(f.projectDir(), lesson(f.projectDir(), "ID2", "x"))
	m := f.merge(f.project)
	if got, want := slugsOf(m.Active), []string{"project/x"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	if p := find(m, "x"); len(p.Overrides) != 2 {
		t.Errorf("Overrides = %v, want both built-in lessons", p.Overrides)
	}
}

func TestMergeSameScopeDuplicate(t *testing.T) {
	f := newFixture(t)
	g := f.d.GlobalLessons()
	f.add(g, lesson(g, "DUP", "first"), lesson(g, "DUP", "second"))
	m := f.merge(f.outside)
	if got, want := slugsOf(m.Active), []string{"global/first"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	if r := reasons(m)["global/second"]; !strings.HasPrefix(r, "duplicate of global:") {
		t.Errorf("reason = %q, want duplicate of global", r)
	}
}

func TestMergePacks(t *testing.T) {
	f := newFixture(t)
	f.loader.configs[f.d.GlobalConfig()] = lessons.Config{Packs: []lessons.PackRef{{Name: "team", URL: "x", AllowBlock: false}}}
	packDir := filepath.Join(f.d.PackDir("team", filepath.Dir(f.d.GlobalConfig())), "lessons")
	f.add(f.d.GlobalLessons(), lesson(f.d.GlobalLessons(), "G", "shared"))
	f.add(packDir, lesson(packDir, "T", "shared"), lesson(packDir, "T2", "only-team"))
	f.add(f.projectDir(), lesson(f.projectDir(), "P", "only-team"))

	m := f.merge(f.project)
	if got, want := slugsOf(m.Active), []string{"pack:team/shared", "project/only-team"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	for _, r := range m.Active {
		if r.Scope.Pack() == "team" && r.AllowBlock {
			t.Errorf("pack lesson %s may block, but the pack does not allow it", r.Slug)
		}
		if r.Scope == lessons.ScopeProject && !r.AllowBlock {
			t.Errorf("project lesson %s may not block", r.Slug)
		}
	}
}

func TestMergeDisable(t *testing.T) {
	f := newFixture(t)
	f.add(BuiltinDir, lesson(BuiltinDir, "B1", "by-slug"), lesson(BuiltinDir, "B2", "by-id"), lesson(BuiltinDir, "B3", "kept"))
	f.add(f.projectDir(), lesson(f.projectDir(), "P1", "project-one"))
	f.loader.configs[f.d.GlobalConfig()] = lessons.Config{Disable: []string{"by-slug"}}
	f.loader.configs[ProjectConfig(f.project)] = lessons.Config{Disable: []string{"B2", "project-one"}}

	m := f.merge(f.project)
	if got, want := slugsOf(m.Active), []string{"builtin/kept"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	for _, key := range []string{"builtin/by-slug", "builtin/by-id", "project/project-one"} {
		if r := reasons(m)[key]; r != "disabled" {
			t.Errorf("reason of %s = %q, want disabled", key, r)
		}
	}
	// Outside the project only the global config applies.
	if got, want := slugsOf(f.merge(f.outside).Active), []string{"builtin/by-id", "builtin/kept"}; !slices.Equal(got, want) {
		t.Errorf("outside: Active = %v, want %v", got, want)
	}
}

func TestMergeExclusionReasons(t *testing.T) {
	f := newFixture(t)
	g := f.d.GlobalLessons()
	lowConf, lowPrio, review, bad := lesson(g, "1", "low-conf"), lesson(g, "2", "low-prio"), lesson(g, "3", "review"), lesson(g, "4", "bad-regex")
	lowConf.Confidence = 0.3
	lowPrio.Priority = 2
	review.NeedsReview = true
	bad.Triggers.Commands = []string{"(?<=x"}
	f.add(g, lowConf, lowPrio, review, bad, lesson(g, "5", "fine"))
	f.add(BuiltinDir, lesson(BuiltinDir, "4", "bad-regex"))
	f.loader.configs[f.d.GlobalConfig()] = lessons.Config{MinPriority: 3}

	m := f.merge(f.outside)
	// The invalid global lesson does not replace the valid built-in one.
	if got, want := slugsOf(m.Active), []string{"builtin/bad-regex", "global/fine"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	r := reasons(m)
	for key, want := range map[string]string{
		"global/low-conf":  "confidence 0.3 < minConfidence 0.5",
		"global/low-prio":  "priority 2 < minPriority 3",
		"global/review":    "needs review",
		"global/bad-regex": "invalid: triggers.commands[0]: invalid regex",
	} {
		if !strings.HasPrefix(r[key], want) {
			t.Errorf("reason of %s = %q, want prefix %q", key, r[key], want)
		}
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Error(), "bad-regex.yaml") {
		t.Errorf("Warnings = %v, want one naming bad-regex.yaml", m.Warnings)
	}
}

func TestMergeLoadErrorsDoNotStopOthers(t *testing.T) {
	f := newFixture(t)
	f.add(f.projectDir(), lesson(f.projectDir(), "P", "good"))
	f.loader.errs[f.projectDir()] = []error{errors.New(".lessons/broken.yaml:3:1: did not find expected key")}
	m := f.merge(f.project)
	if got, want := slugsOf(m.Active), []string{"project/good"}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	if len(m.Warnings) != 1 {
		t.Errorf("Warnings = %v, want the load error", m.Warnings)
	}
}

func TestMergeConfigOverlayAndEnv(t *testing.T) {
	f := newFixture(t)
	f.loader.configs[f.d.GlobalConfig()] = lessons.Config{MaxLessonsPerInjection: 5, MinConfidence: 0.7}
	f.loader.configs[ProjectConfig(f.project)] = lessons.Config{MinConfidence: 0.9}
	env := map[string]string{"LESSONS_INJECTION_BUDGET_BYTES": "1000"}
	m := merge(f.d, f.project, f.loader, nil, func(k string) string { return env[k] })
	c := m.Config
	if c.MaxLessonsPerInjection != 5 || c.MinConfidence != 0.9 || c.InjectionBudgetBytes != 1000 || c.MinPriority != 1 {
		t.Errorf("Config = %+v, want global 5 lessons, project 0.9 confidence, env 1000 bytes, default priority 1", c)
	}
	env["LESSONS_MIN_PRIORITY"] = "high"
	m = merge(f.d, f.project, f.loader, nil, func(k string) string { return env[k] })
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Error(), "LESSONS_MIN_PRIORITY") {
		t.Errorf("Warnings = %v, want one naming LESSONS_MIN_PRIORITY", m.Warnings)
	}
}

func TestProjectLessonsStayInProject(t *testing.T) {
	f := newFixture(t)
	f.add(f.projectDir(), lesson(f.projectDir(), "P", "local"))
	if m := f.merge(f.outside); len(m.Active) != 0 || m.Project != "" {
		t.Errorf("outside the project: Project %q, Active %v, want none", m.Project, slugsOf(m.Active))
	}
	if m := f.merge(filepath.Join(f.project, "sub")); len(m.Active) != 1 {
		t.Errorf("inside the project: Active %v, want the project lesson", slugsOf(m.Active))
	}
}

func TestStores(t *testing.T) {
	f := newFixture(t)
	cfg := lessons.Config{Packs: []lessons.PackRef{{Name: "a", AllowBlock: true}, {Name: "b"}}}
	var got []string
	for _, s := range Stores(f.d, filepath.Join(f.project, "sub"), cfg) {
		got = append(got, string(s.Scope))
	}
	if want := []string{"builtin", "global", "pack:a", "pack:b", "project"}; !slices.Equal(got, want) {
		t.Errorf("Stores scopes = %v, want %v", got, want)
	}
	if n := len(Stores(f.d, f.outside, lessons.Config{})); n != 2 {
		t.Errorf("outside a project: %d stores, want builtin and global", n)
	}
}

// A pack that may not block can neither replace a blocking lesson of a
// lower scope (by slug or by id) nor mute it with a weaker copy; it may
// replace lessons that do not block, and a pack that may block may
// replace either. Every override is recorded.
func TestMergePackMayNotUnblock(t *testing.T) {
	f := newFixture(t)
	blocks := func(r Resolved) Resolved {
		r.Block, r.BlockReason = true, "refused"
		return r
	}
	f.add(BuiltinDir,
		blocks(lesson(BuiltinDir, "B1", "rm-home")),
		blocks(lesson(BuiltinDir, "B2", "push-force")),
		lesson(BuiltinDir, "B3", "gentle"))
	g := f.d.GlobalLessons()
	f.add(g, blocks(lesson(g, "G1", "global-guard")))
	f.loader.configs[f.d.GlobalConfig()] = lessons.Config{Packs: []lessons.PackRef{
		{Name: "weak", URL: "x"}, {Name: "strong", URL: "y", AllowBlock: true},
	}}
	weak := filepath.Join(f.d.PackDir("weak", filepath.Dir(f.d.GlobalConfig())), "lessons")
	strong := filepath.Join(f.d.PackDir("strong", filepath.Dir(f.d.GlobalConfig())), "lessons")
	quiet := lesson(weak, "W2", "innocuous-helper")
	quiet.Confidence = 0.1 // would be excluded, taking the block with it
	f.add(weak,
		lesson(weak, "W1", "rm-home"),  // same slug
		quiet,                          // same id as push-force below
		lesson(weak, "W3", "gentle"),   // a lesson that does not block
		lesson(weak, "G1", "global-x")) // same id as a global block
	quiet.ID = "B2"
	f.loader.lessons[weak][1] = quiet
	f.add(strong, lesson(strong, "S1", "global-guard"))

	m := f.merge(f.outside)
	want := []string{"builtin/push-force", "builtin/rm-home", "pack:strong/global-guard", "pack:weak/gentle"}
	if got := slugsOf(m.Active); !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v", got, want)
	}
	for _, slug := range []string{"rm-home", "push-force"} {
		if r := find(m, slug); r.Scope != lessons.ScopeBuiltin || !r.Block || !r.AllowBlock {
			t.Errorf("%s after a pack without allowBlock reused it = %s block %v allow %v, want the built-in block", slug, r.Scope, r.Block, r.AllowBlock)
		}
	}
	r := reasons(m)
	for _, key := range []string{"pack:weak/rm-home", "pack:weak/innocuous-helper", "pack:weak/global-x"} {
		if !strings.HasPrefix(r[key], "may not replace the blocking lesson ") {
			t.Errorf("reason of %s = %q, want a refused override", key, r[key])
		}
	}
	var got []string
	for _, o := range m.Overrides {
		got = append(got, fmt.Sprintf("%s/%s>%s/%s refused=%v", o.By.Scope, o.By.Slug, o.Of.Scope, o.Of.Slug, o.Refused))
	}
	slices.Sort(got)
	wantO := []string{
		"pack:strong/global-guard>global/global-guard refused=false",
		"pack:weak/gentle>builtin/gentle refused=false",
		"pack:weak/global-x>global/global-guard refused=true",
		"pack:weak/innocuous-helper>builtin/push-force refused=true",
		"pack:weak/rm-home>builtin/rm-home refused=true",
	}
	if !slices.Equal(got, wantO) {
		t.Errorf("Overrides =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantO, "\n"))
	}

	// The user's own disable is what turns a block off.
	f.loader.configs[f.d.GlobalConfig()] = lessons.Config{Disable: []string{"rm-home"}, Packs: f.loader.configs[f.d.GlobalConfig()].Packs}
	if got := reasons(f.merge(f.outside))["builtin/rm-home"]; got != "disabled" {
		t.Errorf("rm-home after the user disabled it: reason %q, want disabled", got)
	}
}

// TestMergePackMayNotShadowAnotherPacksBlock: a pack that may not block
// reuses, by slug or by id, the slug of a blocking lesson of a pack that
// may; whichever pack is subscribed first, the block stays active and
// the other lesson is refused, with an Override saying so.
func TestMergePackMayNotShadowAnotherPacksBlock(t *testing.T) {
	for _, c := range []struct {
		name   string
		order  []string
		sameID bool
	}{
		{"free first, same slug", []string{"free", "guard"}, false},
		{"guard first, same slug", []string{"guard", "free"}, false},
		{"free first, same id", []string{"free", "guard"}, true},
		{"guard first, same id", []string{"guard", "free"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			var refs []lessons.PackRef
			for _, name := range c.order {
				refs = append(refs, lessons.PackRef{Name: name, URL: "x", AllowBlock: name == "guard"})
			}
			f.loader.configs[f.d.GlobalConfig()] = lessons.Config{Packs: refs}
			dir := func(name string) string {
				return filepath.Join(f.d.PackDir(name, filepath.Dir(f.d.GlobalConfig())), "lessons")
			}
			block := lesson(dir("guard"), "GUARD", "pytest-block")
			block.Block, block.BlockReason = true, "Refused: pytest needs -x."
			impostor := lesson(dir("free"), "FREE", "pytest-block")
			if c.sameID {
				impostor = lesson(dir("free"), "GUARD", "pytest-is-fine")
			}
			f.add(dir("guard"), block)
			f.add(dir("free"), impostor)
			m := f.merge(f.outside)
			if got, want := slugsOf(m.Active), []string{"pack:guard/pytest-block"}; !slices.Equal(got, want) {
				t.Errorf("Active = %v, want %v", got, want)
			}
			if len(m.Overrides) != 1 || !m.Overrides[0].Refused || m.Overrides[0].By.Scope.Pack() != "free" || m.Overrides[0].Of.Scope.Pack() != "guard" {
				t.Errorf("Overrides = %+v, want free's lesson refused", m.Overrides)
			}
			if r := reasons(m)["pack:free/"+impostor.Slug]; !strings.HasPrefix(r, "may not replace the blocking lesson pack:guard:") {
				t.Errorf("free's lesson: reason %q", r)
			}
		})
	}
}
