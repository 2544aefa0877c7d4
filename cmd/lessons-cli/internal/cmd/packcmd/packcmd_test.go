package packcmd_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/packcmd"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/root"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/repo/pack"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
	"github.com/lessons-dev/lessons/scope"
)

// machine is a user's machine: its directories, a project with .lessons,
// and a way to run lessons commands there.
type machine struct {
	t       *testing.T
	env     map[string]string
	project string
	out     *bytes.Buffer
	errOut  *bytes.Buffer
}

func newMachine(t *testing.T) *machine {
	base := t.TempDir()
	m := &machine{t: t, project: filepath.Join(base, "project"), env: map[string]string{
		"HOME":           base,
		"LESSONS_HOME":   filepath.Join(base, "data", "lessons"),
		"XDG_CACHE_HOME": filepath.Join(base, "cache"),
		"XDG_STATE_HOME": filepath.Join(base, "state"),
	}}
	if err := os.MkdirAll(filepath.Join(m.project, scope.ProjectDirName), 0o755); err != nil {
		t.Fatal(err)
	}
	return m
}

func (m *machine) dirs() scope.Dirs {
	return scope.DefaultDirs(func(k string) string { return m.env[k] })
}

// run runs a lessons command line in the project.
func (m *machine) run(args ...string) error {
	ios, _, out, errOut := iostreams.Test()
	m.out, m.errOut = out, errOut
	f := &cmdutil.Factory{
		IOStreams: ios, Getenv: func(k string) string { return m.env[k] },
		WorkingDir: func() (string, error) { return m.project, nil },
		Loader:     repo.Loader{}, Now: time.Now,
	}
	cmd := root.NewCmdRoot(f)
	cmd.SetArgs(args)
	_, err := cmd.ExecuteC()
	return err
}

func (m *machine) mustRun(args ...string) string {
	m.t.Helper()
	if err := m.run(args...); err != nil {
		m.t.Fatalf("lessons %s: %v\n%s", strings.Join(args, " "), err, m.errOut)
	}
	return m.out.String()
}

func TestSubscribeSyncUpdateSubmitRemove(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team-pack", packtest.PackFiles(2))
	base, _ := packtest.StartDaemon(t, root)
	url := base + "team-pack.git"
	m := newMachine(t)

	m.mustRun("pack", "add", url, "--project")
	cfg, err := repo.Loader{}.Config(scope.ProjectConfig(m.project))
	if err != nil || len(cfg.Packs) != 1 || cfg.Packs[0].Name != "team-pack" || cfg.Packs[0].URL != url {
		t.Fatalf("project config after pack add = %+v, %v", cfg.Packs, err)
	}

	if out := m.mustRun("sync"); !strings.Contains(out, "team-pack: activated") {
		t.Errorf("sync printed %q", out)
	}
	lockPath := filepath.Join(m.project, scope.ProjectDirName, pack.LockFileName)
	lock, err := pack.ReadLock(lockPath)
	if err != nil || lock.Entry("team-pack") == nil {
		t.Fatalf("project lock after sync: %+v, %v", lock, err)
	}
	if _, err := os.Stat(m.dirs().ManifestPath(m.project)); err != nil {
		t.Errorf("sync did not rebuild the manifest: %v", err)
	}
	var listed []struct{ Slug, Scope string }
	json.Unmarshal([]byte(m.mustRun("list", "--scope", "pack", "--json")), &listed)
	if len(listed) != 2 || listed[0].Scope != "pack:team-pack" {
		t.Errorf("lessons list --scope pack = %+v, want the pack's 2 lessons", listed)
	}

	var packs []map[string]any
	if err := json.Unmarshal([]byte(m.mustRun("pack", "list", "--json")), &packs); err != nil || len(packs) != 1 {
		t.Fatalf("pack list --json: %v %v", packs, err)
	}
	var keys []string
	for k := range packs[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"activeCommit", "allowBlock", "config", "lastSync", "lessons", "lockedCommit", "name", "ref", "scope", "url"}; !slices.Equal(keys, want) {
		t.Errorf("pack list --json fields = %v, want %v", keys, want)
	}
	if packs[0]["lessons"] != 2.0 || packs[0]["scope"] != "project" || packs[0]["lockedCommit"] != lock.Entry("team-pack").Commit {
		t.Errorf("pack list --json = %v", packs[0])
	}

	up.Commit("one more", map[string]string{"lessons/new-one.yaml": packtest.LessonYAML("new-one", 5)})
	if out := m.mustRun("sync"); !strings.Contains(out, "up to date") {
		t.Errorf("sync after an upstream commit printed %q, want the lock kept", out)
	}
	if out := m.mustRun("update", "team-pack"); !strings.Contains(out, "1 added") || !strings.Contains(out, "  + new-one") {
		t.Errorf("update printed %q", out)
	}
	m.mustRun("sync", "--frozen")

	// A project lesson goes to the pack as one commit on a new branch.
	lesson := packtest.LessonYAML("from-project", 77)
	os.WriteFile(filepath.Join(m.project, scope.ProjectDirName, "from-project.yaml"), []byte(lesson), 0o644)
	out := m.mustRun("submit", "from-project", "--pack", "team-pack", "--author-name", "Ada", "--author-email", "ada@example.com")
	if !strings.Contains(out, "pushed lesson/from-project") || !strings.Contains(out, "open a pull request from branch lesson/from-project into main") {
		t.Errorf("submit printed %q", out)
	}
	if n := packtest.Git(t, up.Bare, "rev-list", "--count", "main..lesson/from-project"); n != "1" {
		t.Errorf("lesson/from-project has %s commits over main, want 1", n)
	}

	failing := strings.Replace(packtest.LessonYAML("fails-examples", 78), "match: [cmd78 run]", "match: [something else]", 1)
	os.WriteFile(filepath.Join(m.project, scope.ProjectDirName, "fails-examples.yaml"), []byte(failing), 0o644)
	if err := m.run("submit", "fails-examples", "--pack", "team-pack", "--author-name", "A", "--author-email", "a@b.c"); err == nil || !strings.Contains(err.Error(), "examples that fail") {
		t.Errorf("submit of a lesson whose examples fail: err %v", err)
	}
	if refs := packtest.Git(t, up.Bare, "branch", "--list", "lesson/fails-examples"); refs != "" {
		t.Errorf("a failing lesson was pushed: %q", refs)
	}

	m.mustRun("pack", "rm", "team-pack")
	cfg, _ = repo.Loader{}.Config(scope.ProjectConfig(m.project))
	lock, _ = pack.ReadLock(lockPath)
	if len(cfg.Packs) != 0 || lock.Entry("team-pack") != nil {
		t.Errorf("after pack rm: config packs %+v, lock %+v", cfg.Packs, lock)
	}
	if _, err := os.Stat(m.dirs().PackDir("team-pack", filepath.Dir(lockPath))); !os.IsNotExist(err) {
		t.Errorf("pack rm left the cached pack: %v", err)
	}
}

func TestGlobalSubscriptionCommitsConfigAndLock(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	packtest.NewUpstream(t, root, "team", packtest.PackFiles(1))
	base, _ := packtest.StartDaemon(t, root)
	m := newMachine(t)
	m.mustRun("pack", "add", base+"team.git", "--global", "--allow-block")
	m.mustRun("sync")
	home := m.env["LESSONS_HOME"]
	if st := packtest.Git(t, home, "status", "--porcelain"); st != "" {
		t.Errorf("the global store has uncommitted changes after pack add and sync:\n%s", st)
	}
	if log := packtest.Git(t, home, "log", "--format=%s"); !strings.Contains(log, "lock packs") || !strings.Contains(log, "subscribe to pack team") {
		t.Errorf("global store history:\n%s", log)
	}
}

func TestPackAddRefusesCredentialsAndBadNames(t *testing.T) {
	m := newMachine(t)
	if err := m.run("pack", "add", "https://user:tok@example.com/p.git"); err == nil || strings.Contains(err.Error(), "tok") {
		t.Errorf("pack add with credentials in the URL: err %v", err)
	}
	for _, u := range []string{
		"https://gitlab.example.com/g/p.git?private_token=glpat-SECRET1",
		"https://example.com/p.git?access_token=SECRET1",
		"https://example.com/p.git?ref=main&token=SECRET1",
		"https://SECRET1@example.com/p.git",
	} {
		err := m.run("pack", "add", u, "--project")
		var hint *cmdutil.HintError
		if err == nil || strings.Contains(err.Error(), "SECRET1") || !errors.As(err, &hint) ||
			!strings.Contains(hint.Hint, "LESSONS_GIT_TOKEN=<token> LESSONS_GIT_TOKEN_HOSTS=") || strings.Contains(hint.Hint, "SECRET1") {
			t.Errorf("pack add %s: err %v (hint %+v), want a refusal that says to use LESSONS_GIT_TOKEN, without the secret", u, err, hint)
		}
		if data, _ := os.ReadFile(scope.ProjectConfig(m.project)); strings.Contains(string(data), "SECRET1") {
			t.Errorf("pack add %s wrote the secret to config.yaml", u)
		}
	}
	if err := m.run("pack", "add", "https://example.com/p.git", "--name", "../evil"); err == nil {
		t.Error("pack add accepted the name ../evil")
	}
}

func TestPackInit(t *testing.T) {
	m := newMachine(t)
	dir := filepath.Join(t.TempDir(), "Acme Lessons")
	out := m.mustRun("pack", "init", dir, "--maintainer", "@acme/platform")
	if !strings.Contains(out, "created pack acme-lessons") {
		t.Errorf("pack init printed %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".github", "workflows", "lessons.yml")); err != nil {
		t.Error(err)
	}
}

func TestNameFromURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/acme/Lessons_Pack.git": "lessons-pack",
		"git@github.com:acme/team.git":             "team",
		"git://127.0.0.1:9/x/":                     "x",
	} {
		if got := packcmd.NameFromURL(in); got != want {
			t.Errorf("NameFromURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSyncAndUpdateJSON(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base, stop := packtest.StartDaemon(t, root)
	m := newMachine(t)
	m.mustRun("pack", "add", base+"team.git", "--project")
	outcome := func(args ...string) packcmd.SyncItem {
		t.Helper()
		var items []packcmd.SyncItem
		out := m.mustRun(append(args, "--json")...)
		if err := json.Unmarshal([]byte(out), &items); err != nil || len(items) != 1 {
			t.Fatalf("lessons %s --json printed %q: %v", strings.Join(args, " "), out, err)
		}
		return items[0]
	}

	first := outcome("sync")
	if first.Status != "activated" || first.Lessons != 2 || first.Previous != "" || len(first.Commit) != 40 || first.Offline != "" {
		t.Errorf("first sync --json = %+v", first)
	}
	if again := outcome("sync"); again.Status != "current" || again.Commit != first.Commit {
		t.Errorf("repeat sync --json = %+v", again)
	}

	up.Commit("one more", map[string]string{"lessons/new-one.yaml": packtest.LessonYAML("new-one", 5)})
	upd := outcome("update")
	if upd.Status != "updated" || upd.Previous != first.Commit || upd.Lessons != 3 ||
		upd.Diff == nil || !slices.Equal(upd.Diff.Added, []string{"new-one"}) || len(upd.Diff.Removed) != 0 {
		t.Errorf("update --json = %+v (diff %+v)", upd, upd.Diff)
	}

	stop()
	offline := outcome("sync")
	if offline.Status != "current" || offline.Commit != upd.Commit || offline.Offline == "" {
		t.Errorf("sync --json with the server down = %+v, want the cached commit and why it is offline", offline)
	}
}
