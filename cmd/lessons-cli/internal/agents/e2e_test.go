package agents

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

var built struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// buildBinaries builds lessons and lessons-cli side by side, once.
func buildBinaries(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "lessons-agents-bin-")
		if built.err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", built.dir+string(filepath.Separator),
			"github.com/lessons-dev/lessons/cmd/lessons", "github.com/lessons-dev/lessons/cmd/lessons-cli")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// sandbox is a user whose home, XDG directories and project are under a
// temporary directory.
type sandbox struct {
	t             *testing.T
	bin           string
	home, project string
	env           []string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	root := t.TempDir()
	s := &sandbox{t: t, bin: buildBinaries(t), home: filepath.Join(root, "home"), project: filepath.Join(root, "project")}
	for _, d := range []string{s.home, filepath.Join(s.project, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.env = []string{
		"HOME=" + s.home,
		"PATH=" + pathWithoutClaude(),
		"LESSONS_HOME=" + filepath.Join(root, "store"),
		"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(root, "cache"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"),
		"XDG_DATA_HOME=" + filepath.Join(root, "data"),
	}
	return s
}

// pathWithoutClaude is $PATH without the directories holding a claude
// program, whose release would change the events install registers.
func pathWithoutClaude() string {
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if lookPath(Env{Getenv: func(string) string { return dir }}, "claude") == "" {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// lessons runs the built front binary in the project and returns its
// standard output; it fails the test when the command fails.
func (s *sandbox) lessons(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(filepath.Join(s.bin, "lessons"), args...)
	cmd.Dir, cmd.Env = s.project, s.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		s.t.Fatalf("lessons %s: %v\n%s%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String()
}

func (s *sandbox) read(path string) []byte {
	s.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	return data
}

func (s *sandbox) write(path string, data []byte) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		s.t.Fatal(err)
	}
}

// TestBuiltInstallRoundTrip installs into real settings files full of
// other keys and hooks with the built binary, and uninstalls: the home
// directory is then what it was, byte for byte, file for file (the
// backup install kept is gone too).
func TestBuiltInstallRoundTrip(t *testing.T) {
	for _, tt := range []struct{ agent, file, path string }{
		{"claude", "claude-settings.json", ".claude/settings.json"},
		{"codex", "codex-hooks.json", ".codex/hooks.json"},
		{"gemini", "gemini-settings.json", ".gemini/settings.json"},
	} {
		t.Run(tt.agent, func(t *testing.T) {
			s := newSandbox(t)
			path := filepath.Join(s.home, filepath.FromSlash(tt.path))
			orig := fixture(t, tt.file)
			s.write(path, orig)
			before := tree(t, s.home)

			diff := s.lessons("install", "--platform", tt.agent, "--dry-run")
			if !strings.HasPrefix(diff, "--- "+path+"\n+++ "+path+"\n@@ ") ||
				!strings.Contains(diff, filepath.Join(s.bin, "lessons")+" hook --platform "+tt.agent) {
				t.Errorf("dry run printed:\n%s", diff)
			}
			if !bytes.Equal(s.read(path), orig) {
				t.Fatal("--dry-run changed the file")
			}

			s.lessons("install", "--platform", tt.agent)
			installed := s.read(path)
			events, commands, err := Agents[tt.agent].Installed(installed)
			if err != nil || len(events) != len(Agents[tt.agent].Events) {
				t.Fatalf("installed events %v, %v", events, err)
			}
			if want := filepath.Join(s.bin, "lessons") + " hook --platform " + tt.agent; commands[0] != want {
				t.Errorf("command %q, want %q", commands[0], want)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("the file's mode changed: %v %v", fi.Mode(), err)
			}
			if !bytes.Equal(s.read(path+BackupSuffix), orig) {
				t.Error("the backup is not the original")
			}

			if out := s.lessons("install", "--platform", tt.agent); !strings.Contains(out, "nothing to change") {
				t.Errorf("second install said %q", out)
			}
			if !bytes.Equal(s.read(path), installed) {
				t.Error("the second install changed the file")
			}
			if out := s.lessons("install", "--platform", tt.agent, "--dry-run"); out != "" {
				t.Errorf("dry run after install printed %q", out)
			}

			s.lessons("uninstall", "--platform", tt.agent)
			if got := s.read(path); !bytes.Equal(got, orig) {
				t.Errorf("uninstall did not restore the file:\n%s", unifiedDiff("orig", "now", string(orig), string(got)))
			}
			sameTree(t, before, tree(t, s.home))
		})
	}
	t.Run("opencode", func(t *testing.T) {
		s := newSandbox(t)
		config := filepath.Join(s.home, ".config", "opencode")
		s.write(filepath.Join(config, "opencode.json"), []byte(`{"$schema": "https://opencode.ai/config.json", "model": "x/y"}`+"\n"))
		s.write(filepath.Join(config, "plugins", "other.js"), []byte("export const Other = async () => ({})\n"))
		before := tree(t, s.home)
		s.lessons("install", "--platform", "opencode")
		if _, err := os.Stat(filepath.Join(config, "plugins", PluginFile)); err != nil {
			t.Fatal(err)
		}
		s.lessons("uninstall", "--platform", "opencode")
		sameTree(t, before, tree(t, s.home))
	})
}

// tree is every file and directory under root, by relative path: a
// file's bytes, "dir" for a directory.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			out[rel] = "dir"
			return nil
		}
		data, err := os.ReadFile(path)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails the test where after differs from before.
func sameTree(t *testing.T, before, after map[string]string) {
	t.Helper()
	for _, p := range slices.Sorted(maps.Keys(after)) {
		if b, ok := before[p]; !ok {
			t.Errorf("uninstall left %s, which install created", p)
		} else if b != after[p] {
			t.Errorf("%s differs after the round trip:\n%s", p, unifiedDiff("before", "after", b, after[p]))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(before)) {
		if _, ok := after[p]; !ok {
			t.Errorf("the round trip removed %s", p)
		}
	}
}

// TestBuiltInstallCreatesAndDeletes installs into a project with no
// settings file, and uninstalling deletes what install created.
func TestBuiltInstallCreatesAndDeletes(t *testing.T) {
	s := newSandbox(t)
	sub := filepath.Join(s.project, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"claude", "codex", "gemini", "opencode", "antigravity"} {
		paths := Agents[agent].Paths(Env{}, s.project)
		s.lessons("install", "--platform", agent, "--project")
		for _, path := range paths {
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("%s: %v", agent, err)
			}
		}
		s.lessons("uninstall", "--platform", agent, "--project")
		for _, path := range paths {
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("%s: uninstall left %s", agent, path)
			}
			if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
				t.Errorf("%s: uninstall left %s", agent, filepath.Dir(path))
			}
		}
	}
}

// TestBuiltAntigravity installs for Antigravity CLI at the user's level,
// into a hooks.json that has other hooks, and runs the command lines the
// files hold as agy would, through a shell, with agy's payloads: a force
// push is refused in both of agy's forms, a harmless call is allowed
// explicitly, and the first model call gets the protocol. Uninstalling
// restores the file and deletes the one install created.
func TestBuiltAntigravity(t *testing.T) {
	s := newSandbox(t)
	a := Agents["antigravity"]
	paths := a.Paths(EnvFrom(func(k string) string {
		if k == "HOME" {
			return s.home
		}
		return ""
	}), "")
	orig := fixture(t, "antigravity-hooks.json")
	s.write(paths[0], orig)
	out := s.lessons("install", "--platform", "antigravity")
	for i, path := range paths {
		if !strings.Contains(out, "installed lessons for Antigravity CLI in "+path) {
			t.Errorf("install said %q, want %s named", out, path)
		}
		events, commands, err := a.Installed(s.read(path))
		if err != nil || strings.Join(events, ",") != "PreToolUse,PreInvocation" {
			t.Fatalf("%s: events %v, %v", path, events, err)
		}
		deny := s.shell(commands[0], agyPayload(s.project, "PreToolUse"))
		if !strings.HasPrefix(deny, `{"allowTool":false,"denyReason":"`) || !strings.Contains(deny, `"decision":"deny","reason":"`) ||
			!strings.Contains(deny, "--force-with-lease") {
			t.Errorf("PreToolUse from %s answered %s", path, deny)
		}
		// Both files run in one conversation: the protocol comes once.
		text := s.shell(commands[1], agyPayload(s.project, "PreInvocation"))
		if want := map[int]string{0: `{"injectSteps":[{"ephemeralMessage":"## Lessons: report what you learn`, 1: `{}`}[i]; !strings.HasPrefix(text, want) {
			t.Errorf("PreInvocation from %s answered %.100s, want %s", path, text, want)
		}
	}
	getenv := func(k string) string {
		for _, kv := range s.env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	for _, kv := range s.env { // the hook doctor runs finds its directories here
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	if ps := Check(getenv, s.project); len(ps) > 0 {
		t.Errorf("doctor on the install: %+v", ps)
	}
	if log, err := os.ReadFile(filepath.Join(getenv("XDG_STATE_HOME"), "lessons", "hook.log")); err == nil {
		t.Errorf("hook.log after the install's calls and doctor's probe: %s", log)
	}
	if answer := s.shell(a.Command(filepath.Join(s.bin, "lessons"))+" --event PreToolUse",
		`{"conversationId":"c2","workspacePaths":["`+s.project+`"],"toolCall":{"name":"view_file","args":{"AbsolutePath":"README.md"}}}`); answer != `{"allowTool":true,"decision":"allow"}` {
		t.Errorf("a harmless call answered %s", answer)
	}
	s.lessons("uninstall", "--platform", "antigravity")
	if got := s.read(paths[0]); !bytes.Equal(got, orig) {
		t.Errorf("uninstall did not restore %s:\n%s", paths[0], got)
	}
	if _, err := os.Stat(paths[1]); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s, which install created", paths[1])
	}
}

// agyPayload is what Antigravity CLI sends at event: a force push at
// PreToolUse, a model call otherwise.
func agyPayload(project, event string) string {
	if event == "PreToolUse" {
		return `{"conversationId":"c1","workspacePaths":["` + project + `"],"stepIdx":1,` +
			`"toolCall":{"name":"run_command","args":{"CommandLine":"git push --force origin main","Cwd":"` + project + `"}}}`
	}
	return `{"conversationId":"c1","workspacePaths":["` + project + `"],"stepIdx":2}`
}

// shell runs a hook command line through sh, as agents do, with stdin.
func (s *sandbox) shell(command, stdin string) string {
	s.t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir, cmd.Env, cmd.Stdin = s.project, s.env, strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("%s: %v", command, err)
	}
	return strings.TrimSpace(string(out))
}

// TestBuiltOpencodePlugin runs the installed plugin against the built
// lessons binary and its built-in lessons.
func TestBuiltOpencodePlugin(t *testing.T) {
	s := newSandbox(t)
	s.lessons("install", "--platform", "opencode", "--project")
	plugin := filepath.Join(s.project, ".opencode", "plugins", PluginFile)
	if got := PluginBinary(s.read(plugin)); got != filepath.Join(s.bin, "lessons") {
		t.Errorf("the plugin runs %q", got)
	}
	runHarness(t, "real", writePlugin(t, s.read(plugin)), append(s.env, "HARNESS_PROJECT="+s.project)...)
}

// TestBuiltClaudePlugin writes a Claude Code plugin whose manifest
// carries the version --version prints, whatever Go's VCS stamping
// setting was when the binaries were built.
func TestBuiltClaudePlugin(t *testing.T) {
	s := newSandbox(t)
	dir := filepath.Join(s.project, "plugin")
	s.lessons("install", "--platform", "claude", "--plugin", dir)
	_, after, _ := strings.Cut(s.lessons("--version"), " version ")
	printed := strings.Fields(after)
	if len(printed) == 0 || printed[0] != lessons.Version {
		t.Fatalf("--version printed %q, want %s first", printed, lessons.Version)
	}
	for name, want := range PluginFiles(filepath.Join(s.bin, "lessons"), printed[0]) {
		if got := s.read(filepath.Join(dir, filepath.FromSlash(name))); !bytes.Equal(got, want) {
			t.Errorf("%s:\n%s", name, got)
		}
	}
	hooks := string(s.read(filepath.Join(dir, "hooks", "hooks.json")))
	for _, ev := range Agents["claude"].Events {
		if !strings.Contains(hooks, `"`+ev.Name+`"`) {
			t.Errorf("hooks.json lacks %s", ev.Name)
		}
	}
	if !strings.Contains(string(s.read(filepath.Join(dir, "commands", "add.md"))), filepath.Join(s.bin, "lessons")+" add --project") {
		t.Error("/lessons:add does not run the lessons binary")
	}
}

// TestBuiltDoctor checks installed agents with the built binaries: a
// good install passes, a missing event and a missing binary are found.
func TestBuiltDoctor(t *testing.T) {
	s := newSandbox(t)
	withMachineSettings(t, filepath.Join(s.home, "machine"))
	getenv := func(k string) string {
		for _, kv := range s.env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	for _, agent := range Names() {
		if agent != "gemini" {
			s.lessons("install", "--platform", agent)
		}
	}
	s.lessons("install", "--platform", "gemini", "--project")
	for _, kv := range s.env { // the hook the probe runs finds its directories here
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	// Codex runs the hooks once trusted, Gemini CLI in a trusted folder.
	codexHooks := Agents["codex"].Path(EnvFrom(getenv), "")
	installed, err := Agents["codex"].ourHooks(s.read(codexHooks))
	if err != nil || len(installed) != len(Agents["codex"].Events) {
		t.Fatalf("lessons' Codex hooks: %d, %v", len(installed), err)
	}
	var trust, staleTrust strings.Builder
	for i, h := range installed {
		key := fmt.Sprintf("%s:%s:%d:%d", codexHooks, codexEventLabels[h.Event], h.Group, h.Index)
		fmt.Fprintf(&trust, "[hooks.state.%q]\ntrusted_hash = %q\n", key, codexTrustHash(h))
		stale := codexTrustHash(h)
		if h.Event == "PostToolUse" { // trusted when the hook was another
			stale = fmt.Sprintf("sha256:%064x", i)
		}
		fmt.Fprintf(&staleTrust, "[hooks.state.%q]\ntrusted_hash = %q\n", key, stale)
	}
	codexConfig := filepath.Join(s.home, ".codex", "config.toml")
	trustedFolders := filepath.Join(s.home, ".gemini", "trustedFolders.json")
	s.write(trustedFolders, []byte(`{"`+s.project+`": "TRUST_FOLDER"}`))
	s.write(codexConfig, []byte(staleTrust.String()))
	if ps := Check(getenv, s.project); len(ps) != 1 || ps[0].File != codexHooks ||
		ps[0].Message != "Codex trusted lessons' PostToolUse hooks as they were before they changed: it skips a hook modified since it was trusted (codex exec without a word)" {
		t.Errorf("doctor on a trust older than the hook: %+v", ps)
	}
	s.write(codexConfig, []byte(trust.String()))
	ps, statuses := Report(getenv, s.project)
	if len(ps) > 0 {
		t.Fatalf("problems with a good install: %+v", ps)
	}
	for _, st := range statuses {
		if !strings.HasPrefix(st.Line(), st.Title+": ok (") {
			t.Errorf("status of a good install: %q", st.Line())
		}
	}

	// What keeps the agents from running the hooks.
	geminiProject := Agents["gemini"].Path(EnvFrom(getenv), s.project)
	goodGemini := s.read(geminiProject)
	s.write(codexConfig, []byte(strings.Replace(trust.String(), "session_start", "session_gone", 1)))
	s.write(trustedFolders, []byte(`{"`+s.project+`": "DO_NOT_TRUST"}`))
	s.write(geminiProject, bytes.Replace(goodGemini, []byte(`{`), []byte(`{"hooksConfig": {"enabled": false, "disabled": ["lessons-aftertool"]},`), 1))
	says := map[string]bool{}
	for _, p := range Check(getenv, s.project) {
		says[p.Severity+": "+p.Message] = true
	}
	for _, want := range []string{
		"warning: Codex has not trusted lessons' SessionStart hooks: it skips untrusted hooks (codex exec without a word)",
		"warning: Gemini CLI loads hooks only in a trusted folder, and " + s.project + " is not trusted",
		"error: Gemini CLI runs no hook: hooksConfig.enabled is false",
		`error: Gemini CLI skips lessons' hook "lessons-aftertool": it is in hooksConfig.disabled`,
	} {
		if !says[want] {
			t.Errorf("doctor does not say %q; it says %v", want, says)
		}
	}
	s.write(codexConfig, []byte(trust.String()))
	s.write(trustedFolders, []byte(`{"`+filepath.Join(s.project, "x")+`": "TRUST_PARENT"}`))
	s.write(geminiProject, goodGemini)

	// Claude Code's switch for every hook, in the project's local settings.
	local := filepath.Join(s.project, ".claude", "settings.local.json")
	s.write(local, []byte(`{"disableAllHooks": true}`))
	ps, statuses = Report(getenv, s.project)
	if len(ps) != 1 || ps[0].File != local || !strings.Contains(ps[0].Message, "Claude Code runs no hook") ||
		!strings.HasPrefix(statuses[slices.Index(Names(), "claude")].Line(), "Claude Code: 1 problem, worst error") {
		t.Errorf("doctor with disableAllHooks: %+v, %q", ps, statuses[slices.Index(Names(), "claude")].Line())
	}
	if err := os.Remove(local); err != nil {
		t.Fatal(err)
	}

	// A value type the agent rejects: Codex refuses a string timeout.
	codexData := s.read(codexHooks)
	s.write(codexHooks, bytes.Replace(codexData, []byte(`"timeout": 10`), []byte(`"timeout": "10"`), 1))
	if ps := Check(getenv, s.project); len(ps) != 1 || !strings.Contains(ps[0].Message, `"timeout": "10", which Codex CLI rejects: it must be a whole number of seconds`) {
		t.Errorf("doctor on a string timeout: %+v", ps)
	}
	s.write(codexHooks, codexData)
	if ps := Check(getenv, s.project); len(ps) > 0 {
		t.Fatalf("problems after restoring the install: %+v", ps)
	}

	// The same agent for the user and the project runs every hook twice.
	twice := Agents["claude"].Path(EnvFrom(getenv), s.project)
	s.write(twice, s.read(Agents["claude"].Path(EnvFrom(getenv), "")))
	if ps := Check(getenv, s.project); len(ps) != 1 || ps[0].File != twice || !strings.Contains(ps[0].Message, "every hook runs twice") {
		t.Errorf("doctor on a double install: %+v", ps)
	}
	if err := os.Remove(twice); err != nil {
		t.Fatal(err)
	}

	claude := Agents["claude"].Path(EnvFrom(getenv), "")
	data := s.read(claude)
	broken, _, err := (&Agent{Events: Agents["claude"].Events[1:2]}).RemoveHooks(data, data)
	if err != nil {
		t.Fatal(err)
	}
	s.write(claude, broken)
	codex := Agents["codex"].Path(EnvFrom(getenv), "")
	s.write(codex, bytes.ReplaceAll(s.read(codex), []byte(filepath.Join(s.bin, "lessons")), []byte("/gone/lessons")))

	got := map[string]string{}
	for _, p := range Check(getenv, s.project) {
		got[p.File] = p.Severity + ": " + p.Message
	}
	if !strings.Contains(got[claude], "warning: Claude Code runs lessons for PreToolUse, SubagentStart, UserPromptSubmit, PostToolUse, PostToolUseFailure, PreSkillShellCommand but not for SessionStart") {
		t.Errorf("claude: %q", got[claude])
	}
	if !strings.Contains(got[codex], "error: the hook runs /gone/lessons, which is not an executable file") {
		t.Errorf("codex: %q", got[codex])
	}
	if len(got) != 2 {
		t.Errorf("problems: %v", got)
	}

	cmd := exec.Command(filepath.Join(s.bin, "lessons"), "doctor", "--json")
	cmd.Dir, cmd.Env = s.project, s.env
	out, _ := cmd.Output()
	if !bytes.Contains(out, []byte(`"file": "`+codex+`"`)) {
		t.Errorf("lessons doctor does not report the broken codex install:\n%s", out)
	}
}
