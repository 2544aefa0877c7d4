package candidates

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// tag is a #lesson block an agent wrote.
type tag struct{ trigger, problem, solution, scope string }

// world is a state directory with candidates from a session run in
// project, and an empty global store.
type world struct {
	dirs    scope.Dirs
	project string
	store   *scanner.Store
	merged  scope.Merged
}

func newWorld(t *testing.T, tags ...tag) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{
		dirs:    scope.Dirs{Home: filepath.Join(root, "home"), State: filepath.Join(root, "state"), Cache: filepath.Join(root, "cache")},
		project: filepath.Join(root, "shop"),
		merged:  scope.Merged{Config: lessons.DefaultConfig()},
	}
	if err := os.MkdirAll(filepath.Join(w.project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i, tg := range tags {
		text := fmt.Sprintf("#lesson\ntool: Bash\ntrigger: %s\nproblem: %s\nsolution: %s\nscope: %s\n#/lesson", tg.trigger, tg.problem, tg.solution, tg.scope)
		line, _ := json.Marshal(map[string]any{
			"type": "assistant", "sessionId": "s1", "cwd": w.project, "uuid": fmt.Sprint("a", i),
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}},
		})
		lines = append(lines, string(line))
	}
	logs := filepath.Join(root, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "s1.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := scanner.Scan(context.Background(), scanner.Options{StateDir: w.dirs.State, Paths: []string{logs}}); err != nil {
		t.Fatal(err)
	}
	w.store = scanner.OpenStore(w.dirs.State)
	return w
}

func (w *world) promoter(edit func(string, []byte) ([]byte, error)) *Promoter {
	return &Promoter{
		Dirs: w.dirs, Store: w.store, Cwd: w.project, Now: time.Now, Edit: edit,
		MergeAt: func(string) scope.Merged { return w.merged },
	}
}

func (w *world) candidates(t *testing.T, all bool) []scanner.Candidate {
	t.Helper()
	cs, err := w.store.List(scanner.ListOptions{All: all})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

var (
	projectTag = tag{"make deploy", "make deploy fails unless STAGE names the environment", "Run STAGE=staging make deploy", "project"}
	globalTag  = tag{"pip install requests", "pip install into the system Python is refused by PEP 668", "Create a venv first: python3 -m venv .venv", "global"}
)

func TestPromoteGoesWhereTheEvidencePoints(t *testing.T) {
	w := newWorld(t, projectTag, globalTag)
	p := w.promoter(nil)
	for _, c := range w.candidates(t, false) {
		pr, err := p.Promote(c, DestDefault, false)
		if err != nil {
			t.Fatalf("Promote(%s): %v", c.Summary, err)
		}
		want := filepath.Join(w.project, ".lessons")
		if c.Scope == "global" {
			want = filepath.Join(w.dirs.Home, "lessons")
		}
		if filepath.Dir(pr.Path) != want {
			t.Errorf("Promote(%s) wrote %s, want it in %s", c.Summary, pr.Path, want)
		}
		data, err := os.ReadFile(pr.Path)
		if err != nil || strings.Contains(string(data), "needsReview") || !strings.Contains(string(data), "examples:") {
			t.Errorf("%s: %v\n%s", pr.Path, err, data)
		}
	}
	if _, err := os.Stat(filepath.Join(w.project, ".lessons", ".git")); err == nil {
		t.Error("the project's .lessons became a git repository")
	}
	if left := w.candidates(t, false); len(left) != 0 {
		t.Errorf("after promotion %d candidates still wait for review", len(left))
	}
	for _, c := range w.candidates(t, true) {
		if c.Status != scanner.StatusPromoted || c.LessonID == "" {
			t.Errorf("candidate %s: status %s, lesson %q", c.ID, c.Status, c.LessonID)
		}
		if _, err := p.Promote(c, DestGlobal, false); err == nil || !strings.Contains(err.Error(), "already") {
			t.Errorf("promoting %s twice: %v", c.ID, err)
		}
	}
}

func TestPromoteAppliesTheIntakeRules(t *testing.T) {
	w := newWorld(t, tag{"make deploy", "deploy broke", "Run STAGE=staging make deploy", "global"}, globalTag)
	cs := w.candidates(t, false)
	short := cs[slices.IndexFunc(cs, func(c scanner.Candidate) bool { return c.Summary == "deploy broke" })]
	p := w.promoter(nil)
	if _, err := p.Promote(short, DestDefault, false); err == nil || !strings.Contains(err.Error(), "summary") {
		t.Errorf("a 12-character summary was promoted: %v", err)
	}
	// --edit fixes it.
	p.Edit = func(name string, data []byte) ([]byte, error) {
		s := strings.Replace(string(data), "summary: deploy broke", "summary: make deploy needs STAGE set to the target environment", 1)
		return []byte(strings.Replace(s, "problem: deploy broke", "problem: make deploy stops at once when STAGE is unset", 1)), nil
	}
	if _, err := p.Promote(short, DestGlobal, true); err != nil {
		t.Errorf("the edited lesson was refused: %v", err)
	}
	// A lesson repeating one that exists is refused.
	pip := cs[slices.IndexFunc(cs, func(c scanner.Candidate) bool { return c.Scope == "global" && c.ID != short.ID })]
	same := scanner.ToLesson(pip)
	same.ID, same.Slug = "01JEXISTING", "pip-existing"
	w.merged.Active = []scope.Resolved{{Lesson: same, Scope: lessons.ScopeGlobal, Path: "pip-existing.yaml"}}
	if _, err := p.Promote(pip, DestDefault, false); err == nil || !strings.Contains(err.Error(), "pip-existing") {
		t.Errorf("a repeat of pip-existing was promoted: %v", err)
	}
	if c, _ := w.store.Get(pip.ID); c.Status != scanner.StatusNew {
		t.Errorf("a refused candidate is %s, want still new", c.Status)
	}
}

func TestPromoteProjectNeedsOneProject(t *testing.T) {
	w := newWorld(t, globalTag)
	c := w.candidates(t, false)[0]
	c.Projects = []string{"/a", "/b"}
	p := w.promoter(nil)
	p.Cwd = t.TempDir() // not in a project
	if _, err := p.Promote(c, DestProject, false); err == nil || !strings.Contains(err.Error(), "2 projects") {
		t.Errorf("--project for a candidate of 2 projects, outside any: %v", err)
	}
}

func TestCandidatesJSONFields(t *testing.T) {
	w := newWorld(t, globalTag)
	ios, _, out, _ := iostreams.Test()
	if err := candidatesRun(&Options{IO: ios, Store: func() *scanner.Store { return w.store }, JSON: true}); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != 1 {
		t.Fatalf("candidates --json: %v\n%s", err, out)
	}
	var keys []string
	for k := range got[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := "agents confidence contentHash failedIn failure firstSeen id kind lastSeen needsReview occurrences priority projects provenance scope sessions signals solution status summary problem tool trigger triggers examples"
	wantKeys := strings.Fields(want)
	slices.Sort(wantKeys)
	if strings.Join(keys, " ") != strings.Join(wantKeys, " ") {
		t.Errorf("candidates --json keys:\n got %v\nwant %v", keys, wantKeys)
	}
}

func TestReview(t *testing.T) {
	w := newWorld(t, projectTag, globalTag)
	ios, in, out, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStderrTTY(true)
	first, second := w.candidates(t, false)[0], w.candidates(t, false)[1]
	in.WriteString("x\nr\ng\n")
	opts := &ReviewOptions{IO: ios, Promoter: func() (*Promoter, error) { return w.promoter(nil), nil }}
	if err := reviewRun(opts); err != nil {
		t.Fatalf("review: %v\n%s", err, errOut)
	}
	for _, want := range []string{first.Summary, "Problem:", "Seen in:", "Goes to:", second.Summary} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("review output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut.String(), "answer y, g, p") || !strings.Contains(errOut.String(), "promoted 1, rejected 1, 0 left") {
		t.Errorf("review prompts:\n%s", errOut)
	}
	if c, _ := w.store.Get(first.ID); c.Status != scanner.StatusRejected {
		t.Errorf("first candidate is %s, want rejected", c.Status)
	}
	if c, _ := w.store.Get(second.ID); c.Status != scanner.StatusPromoted {
		t.Errorf("second candidate is %s, want promoted", c.Status)
	}

	// Not on a terminal it prints the list.
	w = newWorld(t, globalTag)
	ios, _, out, _ = iostreams.Test()
	opts = &ReviewOptions{IO: ios, Promoter: func() (*Promoter, error) { return w.promoter(nil), nil }}
	if err := reviewRun(opts); err != nil {
		t.Fatal(err)
	}
	if c := w.candidates(t, false)[0]; !strings.HasPrefix(out.String(), c.ID+"\ttag\t") {
		t.Errorf("review off a terminal printed:\n%s", out)
	}
}

func TestReject(t *testing.T) {
	w := newWorld(t, projectTag, globalTag)
	c := w.candidates(t, false)[0]
	ios, _, _, errOut := iostreams.Test()
	err := rejectRun(&RejectOptions{IO: ios, Store: func() *scanner.Store { return w.store }, IDs: []string{c.ID[:5], "zzzz"}})
	if err == nil || !strings.Contains(err.Error(), "zzzz") {
		t.Errorf("reject of an unknown id: %v", err)
	}
	if got, _ := w.store.Get(c.ID); got.Status != scanner.StatusRejected || !strings.Contains(errOut.String(), "rejected "+c.ID) {
		t.Errorf("candidate %s after reject by prefix: %s; %s", c.ID, got.Status, errOut)
	}
}

func TestPromoteFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var got *PromoteOptions
	cmd := NewCmdPromote(f, func(o *PromoteOptions) error { got = o; return nil })
	if err := clitest.Run(cmd, "abc def --global --edit"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.IDs, []string{"abc", "def"}) || got.dest() != DestGlobal || !got.Edit {
		t.Errorf("promote abc def --global --edit = %+v", got)
	}
	cmd = NewCmdPromote(f, func(o *PromoteOptions) error { return nil })
	if err := clitest.Run(cmd, "abc --global --project"); err == nil {
		t.Error("--global --project was accepted")
	}
}

// TestPromoteIntoAWorktreesProject: a candidate seen in an agent's
// worktrees names the project they stand for, which may be no checkout
// (Codex keeps one per task under an id). It goes to the worktree the
// user stands in, else to one a session ran in that still exists; a
// project that is a checkout takes it itself.
func TestPromoteIntoAWorktreesProject(t *testing.T) {
	root := t.TempDir()
	mkRepo := func(dir string) string {
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	ran := mkRepo(filepath.Join(root, ".codex", "worktrees", "ab92", "mise"))
	here := mkRepo(filepath.Join(root, ".codex", "worktrees", "cd34", "mise"))
	if err := os.MkdirAll(filepath.Join(here, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	shop := mkRepo(filepath.Join(root, "shop"))
	mkRepo(filepath.Join(shop, ".claude", "worktrees", "fix-login"))
	mise := filepath.Join(root, ".codex", "worktrees", "mise")
	codex := scanner.Candidate{Projects: []string{mise}, Provenance: []scanner.Provenance{{Project: mise, Dir: ran}}}
	claude := scanner.Candidate{Projects: []string{shop}, Provenance: []scanner.Provenance{{Project: shop, Dir: filepath.Join(shop, ".claude", "worktrees", "fix-login")}}}
	for _, tc := range []struct {
		c         scanner.Candidate
		cwd, want string
	}{
		{codex, root, ran},
		{codex, filepath.Join(here, "src"), here},
		{claude, root, shop},
	} {
		p := &Promoter{Cwd: tc.cwd}
		if got := p.checkout(tc.c, tc.c.Projects[0]); got != tc.want {
			t.Errorf("from %s, %v goes to %s, want %s", tc.cwd, tc.c.Projects, got, tc.want)
		}
	}
}

// TestDescribeSaysWhereTheFailureCameBack: a lesson seen in one session
// whose failure came back in others (got past another way) says so, as
// that is why it is proposed.
func TestDescribeSaysWhereTheFailureCameBack(t *testing.T) {
	var b strings.Builder
	describe(&b, scanner.Candidate{ID: "abc", Kind: scanner.KindRetry, Occurrences: 1, Sessions: []string{"s1"}, FailedIn: 3})
	if first, _, _ := strings.Cut(b.String(), "\n"); !strings.HasSuffix(first, "seen 1× in 1 session(s), 0 project(s); its failure in 3") {
		t.Errorf("first line %q: want the sessions its failure was seen in", first)
	}
}
