package realagents

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons/engine"
)

// CacheEnv names the directory scripts/install-agents.sh installed the
// agents into; the suite skips when it is not set.
const CacheEnv = "LESSONS_REAL_AGENTS"

//go:embed versions.txt
var versions string

// The markers the project's lessons carry, searched in what the model saw.
const (
	callMark  = "CALLMARK"  // in the text of the lesson the probe call brings up
	blockMark = "BLOCKMARK" // in the reason of the lesson that refuses the forbidden call
	startMark = "STARTMARK" // in the text of the session-start lesson
	// protocolMark is a line of the #lesson protocol.
	protocolMark = "## Lessons: report what you learn"
	// probe brings up the call lesson; forbidden is refused, and would
	// have created ran.txt had it run.
	probe     = "echo lessons-e2e-probe"
	forbidden = "touch ran.txt && echo lessons-e2e-forbidden"
)

var binDir string

func TestMain(m *testing.M) {
	code := func() int {
		if os.Getenv(CacheEnv) == "" {
			return m.Run() // every test skips and says why
		}
		dir, err := os.MkdirTemp("", "lessons-realagents-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
			"github.com/lessons-dev/lessons/cmd/lessons", "github.com/lessons-dev/lessons/cmd/lessons-cli").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
			return 1
		}
		binDir = dir
		return m.Run()
	}()
	os.Exit(code)
}

// agentDir is where the install script put the pinned version of pkg; it
// skips the test when the suite is off or the agent is not installed.
func agentDir(t *testing.T, pkg string) string {
	t.Helper()
	cache := suiteCache(t)
	sc := bufio.NewScanner(strings.NewReader(versions))
	for sc.Scan() {
		spec := strings.TrimSpace(sc.Text())
		if spec == "" || spec[0] == '#' {
			continue
		}
		at := strings.LastIndexByte(spec, '@')
		if spec[:at] != pkg {
			continue
		}
		dir := filepath.Join(cache, strings.ReplaceAll(spec, "/", "+"))
		if _, err := os.Stat(filepath.Join(dir, ".installed")); err != nil {
			t.Fatalf("%s is not installed in %s: run scripts/install-agents.sh", spec, cache)
		}
		return dir
	}
	t.Fatalf("versions.txt pins no %s", pkg)
	return ""
}

// suiteCache is the agents' cache directory; it skips the test when the
// suite is off.
func suiteCache(t *testing.T) string {
	t.Helper()
	cache := os.Getenv(CacheEnv)
	if cache == "" {
		t.Skipf("$%s is not set: the real-agent suite needs the agent CLIs; run scripts/install-agents.sh and set %s to the directory it prints (.ci/run does)", CacheEnv, CacheEnv)
	}
	return cache
}

// world is a user whose home, XDG directories, lessons store and git
// project are under a temporary directory, so no agent or lessons run
// touches the machine's own configuration.
type world struct {
	t                   *testing.T
	root, home, project string
	env                 []string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	suiteCache(t)
	root := t.TempDir()
	w := &world{t: t, root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project")}
	for _, d := range []string{w.home, filepath.Join(w.project, ".lessons")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.env = []string{
		"HOME=" + w.home,
		"PATH=" + os.Getenv("PATH"),
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"LESSONS_HOME=" + filepath.Join(root, "store"),
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(w.home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(w.home, ".local", "share"),
		"GIT_CONFIG_GLOBAL=" + filepath.Join(root, "gitconfig"),
		"GIT_CONFIG_NOSYSTEM=1",
	}
	if os.Getenv("LESSONS_DEBUG") != "" { // the hook logs every event it answers
		w.env = append(w.env, "LESSONS_DEBUG=1")
	}
	t.Cleanup(func() {
		if t.Failed() {
			data, _ := os.ReadFile(filepath.Join(w.home, ".local", "state", "lessons", "events.jsonl"))
			t.Logf("lessons events:\n%s\nhook log:\n%s", data, w.hookLog())
		}
	})
	w.git("init", "-q", "-b", "main")
	w.write(filepath.Join(w.project, "README.md"), "A project the real-agent suite works in.\n")
	w.git("add", "README.md")
	w.git("-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "-q", "-m", "start")
	w.lessons("add", "--project",
		"--summary", "The e2e probe command waits on standard input unless it is closed",
		"--problem", callMark+": lessons-e2e-probe reads standard input and waits forever when nothing closes it.",
		"--solution", "Run it as `lessons-e2e-probe < /dev/null`, so that it reads end of file at once.",
		"--command", `lessons-e2e-probe`, "--match", probe, "--no-match", "ls", "--tag", "tool:e2e", "--priority", "6")
	w.lessons("add", "--project",
		"--summary", "The e2e forbidden command must never run in this project",
		"--problem", "lessons-e2e-forbidden stands for a destructive command the suite refuses.",
		"--solution", "Do not run lessons-e2e-forbidden; tell the user instead.",
		"--block", "--decision", "deny", "--block-reason", blockMark+": `{command}` is refused by the e2e suite.",
		"--command", `lessons-e2e-forbidden`, "--match", forbidden, "--no-match", "ls", "--tag", "tool:e2e")
	w.lessons("add", "--project",
		"--summary", "Every session of the e2e project starts with this reminder lesson",
		"--problem", startMark+": the e2e project wants this lesson read at the start of each session.",
		"--solution", "Read it once; nothing to do.",
		"--session-start", "--tag", "topic:e2e", "--force")
	return w
}

func (w *world) write(path, data string) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// read is the file at path; it fails the test when it cannot be read.
func (w *world) read(path string) string {
	w.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(data)
}

// prependPath puts dir first on the world's PATH.
func (w *world) prependPath(dir string) {
	for i, kv := range w.env {
		if rest, ok := strings.CutPrefix(kv, "PATH="); ok {
			w.env[i] = "PATH=" + dir + string(os.PathListSeparator) + rest
		}
	}
}

func (w *world) git(args ...string) {
	w.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = w.project, w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// lessons runs the built front binary in the project and returns its
// output; it fails the test when the command fails.
func (w *world) lessons(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "lessons"), args...)
	cmd.Dir, cmd.Env = w.project, w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("lessons %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// doctor runs lessons doctor in the project and returns what it printed,
// whatever its exit status (1 when it finds an error).
func (w *world) doctor() string {
	w.t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "lessons"), "doctor")
	cmd.Dir, cmd.Env = w.project, w.env
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// agentTimeout bounds one run of an agent.
const agentTimeout = 120 * time.Second

// run runs an agent program in the project with the world's environment
// plus env, bounded by agentTimeout, and returns its standard output. It
// fails the test, showing the agent's error output, when the agent fails.
func (w *world) run(env []string, program string, args ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir, cmd.Env = w.project, append(append([]string{}, w.env...), env...)
	cmd.Stdin = strings.NewReader("")
	endAll(cmd)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	w.t.Logf("%s %s: %v in %v", filepath.Base(program), strings.Join(args, " "), err, time.Since(start).Round(time.Millisecond))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no end within %v", agentTimeout)
		}
		w.t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s\nhook log:\n%s", filepath.Base(program), err, tail(stdout.String()), tail(stderr.String()), w.hookLog())
	}
	return stdout.String()
}

// hookLog is what lessons hook logged.
func (w *world) hookLog() string {
	data, _ := os.ReadFile(engine.HookLogPath(filepath.Join(w.home, ".local", "state", "lessons")))
	return string(data)
}

func tail(s string) string {
	const max = 6000
	if len(s) > max {
		return "…" + s[len(s)-max:]
	}
	return s
}

// exists reports whether the project holds path.
func (w *world) exists(path string) bool {
	_, err := os.Stat(filepath.Join(w.project, path))
	return err == nil
}
