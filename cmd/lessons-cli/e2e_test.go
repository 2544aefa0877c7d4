package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// bin holds the binaries TestMain builds: lessons-cli, and lessons (the
// small front binary) when it builds.
var bin struct {
	dir, cli, front string
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lessons-e2e-")
	if err != nil {
		panic(err)
	}
	bin.dir = dir
	bin.cli = filepath.Join(dir, "lessons-cli")
	if out, err := exec.Command("go", "build", "-o", bin.cli, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	front := filepath.Join(dir, "lessons")
	if err := exec.Command("go", "build", "-o", front, "../lessons").Run(); err == nil {
		bin.front = front
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sandbox is a user with a home of their own: every directory lessons
// reads or writes, and git's global config, are under a temporary
// directory.
type sandbox struct {
	t       *testing.T
	root    string
	home    string // $LESSONS_HOME, the global store
	project string // a git repository with .lessons/
	env     []string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	root := t.TempDir()
	s := &sandbox{t: t, root: root, home: filepath.Join(root, "store"), project: filepath.Join(root, "project")}
	gitconfig := filepath.Join(root, "gitconfig")
	if err := os.WriteFile(gitconfig, []byte("[user]\n\tname = Test\n\temail = test@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.env = append(os.Environ(),
		"HOME="+root,
		"LESSONS_HOME="+s.home,
		"XDG_DATA_HOME="+filepath.Join(root, "data"),
		"XDG_CACHE_HOME="+filepath.Join(root, "cache"),
		"XDG_STATE_HOME="+filepath.Join(root, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(root, "config"),
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"LESSONS_CLI="+bin.cli,
		"EDITOR=true", "VISUAL=",
	)
	if err := os.MkdirAll(filepath.Join(s.project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return s
}

// result is what one run printed and how it exited.
type result struct {
	stdout, stderr string
	code           int
}

// run runs lessons-cli in dir with args and stdin.
func (s *sandbox) run(dir, stdin string, args ...string) result {
	return s.exec(bin.cli, dir, stdin, args...)
}

func (s *sandbox) exec(binary, dir, stdin string, args ...string) result {
	s.t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = dir, s.env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errOut.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		s.t.Fatalf("lessons %v: %v", args, err)
	}
	return r
}

// ok runs lessons-cli and fails the test unless it exits 0.
func (s *sandbox) ok(dir string, args ...string) result {
	s.t.Helper()
	r := s.run(dir, "", args...)
	if r.code != 0 {
		s.t.Fatalf("lessons %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// item is the part of list's JSON these tests read.
type item struct {
	Slug, Scope, Summary, Excluded, Path string
	Disabled                             bool
}

func (s *sandbox) list(dir string, args ...string) []item {
	s.t.Helper()
	var items []item
	r := s.ok(dir, append([]string{"list", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil {
		s.t.Fatalf("list --json: %v\n%s", err, r.stdout)
	}
	return items
}

func (s *sandbox) write(path, text string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// addArgs are the flags of a valid lesson; each word gives a lesson
// that shares few words with the others.
func addArgs(word string) []string {
	texts := map[string][2]string{
		"alpha": {"Running the alpha migration twice corrupted the schema table last time it happened.",
			"Check the alpha migration state with the status subcommand before applying anything."},
		"bravo": {"Bravo deployments ignore environment files unless exported through direnv beforehand.",
			"Export variables via direnv allow, then confirm with printenv before starting bravo."},
	}[word]
	return []string{"add",
		"--summary", "Never run the " + word + " migration twice on the same database",
		"--problem", texts[0],
		"--solution", texts[1],
		"--command", `\bmigrate\s+` + word + `\b`,
		"--match", "migrate " + word + " --apply",
		"--no-match", "migrate status",
		"--tag", "topic:database",
	}
}

// fixture reads a file of testdata/cli.
func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "cli", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestE2EMalformedProjectLesson(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	s.write(filepath.Join(s.project, ".lessons", "make-deploy-needs-the-staging-flag.yaml"), fixture(t, "make-deploy-needs-the-staging-flag.yaml"))
	s.write(filepath.Join(s.project, ".lessons", "broken.yaml"), fixture(t, "broken.yaml"))

	r := s.run(s.project, "", "doctor")
	if r.code != 1 {
		t.Errorf("doctor: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "broken.yaml:") || !strings.Contains(r.stdout, "fix:") {
		t.Errorf("doctor does not name broken.yaml with a line and a fix:\n%s", r.stdout)
	}

	r = s.run(s.project, "", "list")
	if r.code != 0 {
		t.Fatalf("list: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "broken.yaml") {
		t.Errorf("list does not warn about broken.yaml on stderr:\n%s", r.stderr)
	}
	items := s.list(s.project)
	scopes := map[string]int{}
	for _, it := range items {
		scopes[it.Scope]++
	}
	if scopes["project"] != 1 || scopes["builtin"] < 10 {
		t.Errorf("list has %v lessons by scope, want the project lesson and every built-in one", scopes)
	}
}

func TestE2EAddInvalidRegexWritesNothing(t *testing.T) {
	s := newSandbox(t)
	args := addArgs("alpha")
	args = append(args, "--command", "(?<=x", "--global")
	r := s.run(s.root, "", args...)
	if r.code == 0 {
		t.Fatalf("add with an invalid regex succeeded:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "Error:") || !strings.Contains(r.stderr, "invalid regex") || !strings.Contains(r.stderr, "--command") {
		t.Errorf("stderr does not give the regex error and the flag:\n%s", r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
	if files, _ := filepath.Glob(filepath.Join(s.home, "lessons", "*")); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

func TestE2EProjectCopyOfBuiltinReplacesIt(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	builtin := s.list(s.project, "--scope", "builtin")[0]

	shown := s.ok(s.project, "show", builtin.Slug).stdout
	const changed = "summary: The project's own wording of this built-in lesson"
	var lines []string
	for _, line := range strings.Split(shown, "\n") {
		if strings.HasPrefix(line, "summary:") {
			line = changed
		}
		lines = append(lines, line)
	}
	s.write(filepath.Join(s.project, ".lessons", builtin.Slug+".yaml"), strings.Join(lines, "\n"))

	var found []item
	for _, it := range s.list(s.project) {
		if it.Slug == builtin.Slug {
			found = append(found, it)
		}
	}
	if len(found) != 1 || found[0].Scope != "project" || "summary: "+found[0].Summary != changed {
		t.Errorf("list shows %+v for %s, want only the project copy with the new summary", found, builtin.Slug)
	}
	// Outside the project the built-in lesson applies as before.
	for _, it := range s.list(s.root) {
		if it.Slug == builtin.Slug && it.Scope != "builtin" {
			t.Errorf("outside the project %s comes from %s", it.Slug, it.Scope)
		}
	}

	r := s.ok(s.project, "disable", builtin.Slug)
	if !strings.Contains(r.stdout, filepath.Join(".lessons", "config.yaml")) {
		t.Errorf("disable does not say it wrote the project config: %s", r.stdout)
	}
	for _, it := range s.list(s.project) {
		if it.Slug == builtin.Slug {
			t.Errorf("%s is still listed after disable", it.Slug)
		}
	}
	var muted bool
	for _, it := range s.list(s.project, "--all") {
		muted = muted || it.Slug == builtin.Slug && it.Disabled
	}
	if !muted {
		t.Errorf("list --all does not mark %s disabled", builtin.Slug)
	}
	s.ok(s.project, "enable", builtin.Slug)
	if n := len(s.list(s.project, "--scope", "project")); n != 1 {
		t.Errorf("after enable, %d project lessons, want 1", n)
	}
}

func TestE2ETest(t *testing.T) {
	s := newSandbox(t)
	r := s.ok(s.root, "test")
	if !strings.HasPrefix(r.stdout, "ok: ") {
		t.Errorf("test on the built-in pack: %s", r.stdout)
	}

	s.ok(s.project, "init", "--project")
	bad := strings.Replace(fixture(t, "make-deploy-needs-the-staging-flag.yaml"), "    - make deploy\n", "    - make deploy\n    - make build\n", 1)
	file := filepath.Join(s.project, ".lessons", "make-deploy-needs-the-staging-flag.yaml")
	s.write(file, bad)
	r = s.run(s.project, "", "test")
	if r.code != 1 {
		t.Errorf("test with a failing example: exit %d, want 1", r.code)
	}
	if !strings.Contains(r.stdout, file) || !strings.Contains(r.stdout, `examples.match[1] "make build"`) {
		t.Errorf("test does not name the file and the example:\n%s", r.stdout)
	}
	if r := s.run(s.project, "", "test", "--dir", filepath.Join(s.project, ".lessons")); r.code != 1 {
		t.Errorf("test --dir: exit %d, want 1", r.code)
	}
}

func TestE2EEditRejectsInvalidResult(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed to play the editor")
	}
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	file := filepath.Join(s.project, ".lessons", "make-deploy-needs-the-staging-flag.yaml")
	s.write(file, fixture(t, "make-deploy-needs-the-staging-flag.yaml"))
	s.env = append(s.env, "EDITOR=sed -i -e s/summary:/sumary:/")
	r := s.run(s.project, "", "edit", "make-deploy-needs-the-staging-flag")
	if r.code != 1 || !strings.Contains(r.stderr, "sumary") {
		t.Errorf("edit to an unknown key: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if data, _ := os.ReadFile(file); string(data) != fixture(t, "make-deploy-needs-the-staging-flag.yaml") {
		t.Errorf("the file changed:\n%s", data)
	}
	s.env = append(s.env, "EDITOR=sed -i -e s/The.deploy.target/The.make.deploy.target/")
	s.ok(s.project, "edit", "make-deploy-needs-the-staging-flag")
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), "updatedAt:") || !strings.Contains(string(data), "contentHash:") {
		t.Errorf("the edited file lacks updatedAt and contentHash:\n%s", data)
	}
}

func TestE2EDemo(t *testing.T) {
	s := newSandbox(t)
	r := s.ok(s.root, "demo")
	for _, want := range []string{`"hook_event_name":"PreToolUse"`, "additionalContext", "## Lesson:", "answer:  {}"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, r.stdout)
		}
	}
	if entries, _ := os.ReadDir(s.root); len(entries) != 2 { // project and gitconfig
		t.Errorf("demo wrote into the user's directories: %v", entries)
	}
}

func TestE2EFrontBinary(t *testing.T) {
	if bin.front == "" {
		t.Skip("cmd/lessons does not build")
	}
	s := newSandbox(t)
	r := s.exec(bin.front, s.root, "", "list", "--json")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "[") {
		t.Fatalf("lessons list through the front binary: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	payload := `{"session_id":"s1","cwd":"` + s.root + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"pytest -s tests/"}}`
	for _, b := range []string{bin.front, bin.cli} {
		r = s.exec(b, s.root, payload, "hook")
		if r.code != 0 || !strings.Contains(r.stdout, "additionalContext") {
			t.Errorf("%s hook: exit %d\n%s%s", filepath.Base(b), r.code, r.stdout, r.stderr)
		}
		payload = strings.Replace(payload, `"s1"`, `"s2"`, 1)
	}
}

func TestE2EEachGlobalChangeIsOneCommit(t *testing.T) {
	s := newSandbox(t)
	var slugs []string
	for i, word := range []string{"alpha", "bravo"} {
		slug := strings.TrimSpace(s.ok(s.root, append(addArgs(word), "--global")...).stdout)
		slugs = append(slugs, slug)
		msgs := commits(t, s.home)
		// The first add also creates the store, with its own first commit.
		if len(msgs) != i+2 || !strings.Contains(msgs[0], slug) {
			t.Fatalf("after add %d, commits (newest first) %q, want one more naming %s", i+1, msgs, slug)
		}
	}
	near := append(addArgs("alpha"), "--global", "--summary", "The alpha migration must never run twice on one database")
	if r := s.run(s.root, "", near...); r.code != 1 || !strings.Contains(r.stderr, slugs[0]) {
		t.Errorf("a near-duplicate add: exit %d, stderr %s; want exit 1 naming %s", r.code, r.stderr, slugs[0])
	}
	if n := len(commits(t, s.home)); n != 3 {
		t.Errorf("a rejected add made a commit: %d commits", n)
	}
	for _, step := range [][]string{{"disable", slugs[0]}, {"enable", slugs[0]}, {"rm", slugs[1]}} {
		before := len(commits(t, s.home))
		s.ok(s.root, step...)
		msgs := commits(t, s.home)
		if len(msgs) != before+1 || !strings.HasPrefix(msgs[0], step[0]+" "+step[1]) {
			t.Errorf("lessons %s: commits %q, want one more starting %q", strings.Join(step, " "), msgs, step[0]+" "+step[1])
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed; checked with go-git only")
	}
	cmd := exec.Command("git", "log", "--format=%s")
	cmd.Dir, cmd.Env = s.home, s.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Split(strings.TrimSpace(string(out)), "\n"), commits(t, s.home); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("git log = %q, go-git = %q", got, want)
	}
	cmd = exec.Command("git", "status", "--porcelain")
	cmd.Dir, cmd.Env = s.home, s.env
	if out, err := cmd.Output(); err != nil || len(out) != 0 {
		t.Errorf("git status --porcelain = %q, %v; want a clean store", out, err)
	}
}

// commits are the subjects of the store's commits, newest first, read
// with go-git.
func commits(t *testing.T, dir string) []string {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.Log(&git.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	_ = it.ForEach(func(c *object.Commit) error {
		msgs = append(msgs, strings.SplitN(c.Message, "\n", 2)[0])
		return nil
	})
	return msgs
}

func TestE2EAddGoesToTheProjectInsideOne(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	sub := filepath.Join(s.project, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	slug := strings.TrimSpace(s.ok(sub, addArgs("alpha")...).stdout)
	if _, err := os.Stat(filepath.Join(s.project, ".lessons", slug+".yaml")); err != nil {
		t.Errorf("the lesson is not in the project: %v", err)
	}
	if _, err := os.Stat(s.home); err == nil {
		t.Errorf("adding to a project created the global store")
	}
	if items := s.list(s.root); slices.ContainsFunc(items, func(it item) bool { return it.Slug == slug }) {
		t.Errorf("the project lesson applies outside the project")
	}
	r := s.run(s.project, "", "rm", s.list(s.project, "--scope", "builtin")[0].Slug)
	if r.code != 1 || !strings.Contains(r.stderr, "Try: lessons show") {
		t.Errorf("rm of a built-in lesson: exit %d\n%s", r.code, r.stderr)
	}
}

// TestE2EScanPromoteInject follows a mistake from a session log to the
// hook: scan, candidates (secret redacted), promote into the global store
// (one commit), list, and the hook injecting it before the same call.
func TestE2EScanPromoteInject(t *testing.T) {
	const token = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8V"
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs")
	s.write(filepath.Join(logs, "-home-dev-shop", "e2e-1.jsonl"), fixture(t, "session-with-lesson.jsonl"))
	s.ok(s.root, "init")

	r := s.ok(s.root, "scan", "--path", logs)
	if !strings.Contains(r.stdout, "1 #lesson tags") || !strings.Contains(r.stdout, "claude") {
		t.Errorf("scan summary lacks the tag or the compliance table:\n%s", r.stdout)
	}
	r = s.ok(s.root, "candidates", "--json")
	var cands []struct {
		ID, Kind, Summary, Problem, Status string
	}
	if err := json.Unmarshal([]byte(r.stdout), &cands); err != nil {
		t.Fatalf("candidates --json: %v\n%s", err, r.stdout)
	}
	i := slices.IndexFunc(cands, func(c struct{ ID, Kind, Summary, Problem, Status string }) bool { return c.Kind == "tag" })
	if i < 0 {
		t.Fatalf("no tag candidate in %s", r.stdout)
	}
	tag := cands[i]
	if strings.Contains(r.stdout, token) || !strings.Contains(tag.Problem, "[REDACTED]") {
		t.Errorf("the token is not redacted from the candidates:\n%s", r.stdout)
	}

	before := len(commits(t, s.home))
	r = s.ok(s.root, "promote", tag.ID, "--global")
	slug := strings.TrimSpace(r.stdout)
	if msgs := commits(t, s.home); len(msgs) != before+1 || !strings.Contains(msgs[0], slug) {
		t.Errorf("promote: commits (newest first) %q; want exactly one more, naming %s", msgs, slug)
	}
	if items := s.list(s.root, "--scope", "global"); len(items) != 1 || items[0].Slug != slug {
		t.Errorf("list --scope global = %+v, want %s", items, slug)
	}
	if r := s.ok(s.root, "candidates"); strings.Contains(r.stdout, tag.ID) {
		t.Errorf("the promoted candidate is still waiting for review:\n%s", r.stdout)
	}
	if r := s.run(s.root, "", "promote", tag.ID); r.code != 1 || !strings.Contains(r.stderr, "already") {
		t.Errorf("promoting it again: exit %d, %s", r.code, r.stderr)
	}

	hookBin := bin.front
	if hookBin == "" {
		hookBin = bin.cli
	}
	payload := `{"session_id":"s1","cwd":"` + s.root + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make deploy"}}`
	r = s.exec(hookBin, s.root, payload, "hook")
	if r.code != 0 || !strings.Contains(r.stdout, "additionalContext") || !strings.Contains(r.stdout, slug) {
		t.Errorf("hook before `make deploy`: exit %d, want %s injected:\n%s%s", r.code, slug, r.stdout, r.stderr)
	}
	// The token is in the session log only: not in candidates, lessons,
	// the manifest, or any log.
	_ = filepath.WalkDir(s.root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, logs) || strings.Contains(p, string(filepath.Separator)+".git"+string(filepath.Separator)) {
			return nil
		}
		if data, _ := os.ReadFile(p); strings.Contains(string(data), token) {
			t.Errorf("%s holds the token", p)
		}
		return nil
	})
}

// TestE2EScanOpencodeDatabase finds opencode 1.2's database where
// opencode keeps it, with no --path, and follows a mistake from it to the
// hook: a retry committed to the database's write-ahead log only.
func TestE2EScanOpencodeDatabase(t *testing.T) {
	s := newSandbox(t)
	dir := filepath.Join(s.root, ".local", "share", "opencode")
	for _, name := range []string{"opencode.db", "opencode.db-wal"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "opencode-db", "v2", name))
		if err != nil {
			t.Fatal(err)
		}
		s.write(filepath.Join(dir, name), string(data))
	}
	s.ok(s.root, "init")
	r := s.ok(s.root, "scan", "--json")
	var rep struct {
		Formats map[string]struct{ Files int } `json:"formats"`
		Agents  []struct {
			Agent    string
			Sessions int
		} `json:"agents"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("scan --json: %v\n%s", err, r.stdout)
	}
	if rep.Formats["opencode-db"].Files != 2 || len(rep.Agents) != 1 || rep.Agents[0].Agent != "opencode" || rep.Agents[0].Sessions != 2 {
		t.Errorf("scan of the default paths = %s, want 2 opencode sessions from opencode.db", r.stdout)
	}
	var cands []struct{ ID, Kind, Trigger string }
	if err := json.Unmarshal([]byte(s.ok(s.root, "candidates", "--json").stdout), &cands); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cands, func(c struct{ ID, Kind, Trigger string }) bool { return c.Kind == "rejection" })
	if i < 0 || cands[i].Trigger != "/home/u/other/config.yaml" {
		t.Fatalf("candidates = %+v, want the rejected edit of ses_b, which is only in the WAL", cands)
	}
	// a refusal seen in one session is held below minConfidence; the
	// reviewer who promotes it raises its confidence in the editor
	editor := filepath.Join(s.root, "raise-confidence")
	s.write(editor, "#!/bin/sh\nsed -i -e 's/^confidence: .*/confidence: 0.9/' \"$1\"\n")
	if err := os.Chmod(editor, 0o755); err != nil {
		t.Fatal(err)
	}
	s.env = append(s.env, "EDITOR="+editor)
	slug := strings.TrimSpace(s.ok(s.root, "promote", cands[i].ID, "--global", "--edit").stdout)
	hookBin := bin.front
	if hookBin == "" {
		hookBin = bin.cli
	}
	payload := `{"session_id":"s1","cwd":"` + s.root + `","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/srv/app/config.yaml","old_string":"a","new_string":"b"}}`
	if r := s.exec(hookBin, s.root, payload, "hook"); !strings.Contains(r.stdout, slug) {
		t.Errorf("hook before an Edit of config.yaml: want %s injected:\n%s%s", slug, r.stdout, r.stderr)
	}
}
