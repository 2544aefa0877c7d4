//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
)

// hookOnce runs the hook with a time limit and returns its stdout, stderr
// and exit code; it fails the test if the hook is still running at limit.
func (e *env) hookOnce(t *testing.T, payload []byte, limit time.Duration, extraEnv ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(binary(t), "hook", "--platform", "claude")
	cmd.Env = append(e.vars(), extraEnv...)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	if !timer.Stop() {
		t.Fatalf("hook still running after %v", limit)
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code == 0 {
		t.Fatal(err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// oneObject fails unless out is exactly one JSON object on one line.
func oneObject(t *testing.T, out []byte) {
	t.Helper()
	var v map[string]any
	if bytes.Count(out, []byte("\n")) != 1 || json.Unmarshal(out, &v) != nil {
		t.Fatalf("hook printed %q, want one JSON object", out)
	}
}

// Rewriting the manifest in place (cp over it, rsync --inplace, a
// restore) while hooks read it must not kill them: with a shared mapping
// a truncated page is a SIGBUS no recover catches.
func TestManifestRewrittenInPlace(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	path := e.dirs().ManifestPath(e.project)
	full := must(os.ReadFile(path))
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons()[:1])
	small := must(os.ReadFile(path))

	defer rewriteInPlace(path, full, small)()

	binary(t)
	for i := range 300 {
		out, stderr, code := e.hookOnce(t, e.bash("s"+string(rune('a'+i%26)), "pytest -s"), 10*time.Second, "LESSONS_CLI=/bin/false")
		if code != 0 || len(stderr) > 0 {
			t.Fatalf("run %d: exit %d, stderr:\n%s", i, code, stderr)
		}
		oneObject(t, out)
	}
}

// A manifest cut short (a full disk, a torn copy) fails its checksum and
// is rebuilt like a missing one, instead of answering {} until someone
// runs lessons build.
func TestTruncatedManifestRebuilds(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	path := e.dirs().ManifestPath(e.project)
	ready := filepath.Join(e.root, "ready.manifest")
	data := must(os.ReadFile(path))
	if err := os.WriteFile(ready, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	cli := fakeBuild(t, e, "cp "+shq(ready)+" "+shq(path))
	out, _, _ := e.hookOnce(t, e.bash("s", "pytest -s tests/"), 10*time.Second, "LESSONS_CLI="+cli)
	if !strings.Contains(string(out), "pytest-hangs-on-tty") {
		t.Errorf("after truncation the hook answered %s, want the rebuilt manifest's lesson", out)
	}
}

// A manifest whose lessons' entries fail their checksum (checked when
// the first is read, not at open) is removed by the call that finds it,
// and the next call rebuilds it, as for one that fails at open.
func TestCorruptEntriesRebuild(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	path := e.dirs().ManifestPath(e.project)
	ready := filepath.Join(e.root, "ready.manifest")
	data := must(os.ReadFile(path))
	if err := os.WriteFile(ready, data, 0o644); err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0x55 // the last entry's last byte: same length
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cli := fakeBuild(t, e, "cp "+shq(ready)+" "+shq(path))
	out, stderr, code := e.hookOnce(t, e.bash("s1", "pytest -s tests/"), 10*time.Second, "LESSONS_CLI="+cli)
	if code != 0 || len(stderr) > 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	oneObject(t, out)
	out, _, _ = e.hookOnce(t, e.bash("s2", "pytest -s tests/"), 10*time.Second, "LESSONS_CLI="+cli)
	if !strings.Contains(string(out), "pytest-hangs-on-tty") {
		t.Errorf("after the entries failed their checksum the hook answered %s, want the rebuilt manifest's lesson", out)
	}
}

// A manifest path that is not a regular file is refused before it is
// opened: a FIFO would block the open forever, /dev/zero never ends.
func TestManifestNotARegularFile(t *testing.T) {
	for _, kind := range []string{"fifo", "devzero", "dir"} {
		t.Run(kind, func(t *testing.T) {
			e := newEnv(t)
			path := e.dirs().ManifestPath(e.project)
			os.MkdirAll(filepath.Dir(path), 0o755)
			var err error
			switch kind {
			case "fifo":
				err = syscall.Mkfifo(path, 0o644)
			case "devzero":
				err = os.Symlink("/dev/zero", path)
			case "dir":
				err = os.Mkdir(path, 0o755)
			}
			if err != nil {
				t.Skip(err)
			}
			start := time.Now()
			out, stderr, code := e.hookOnce(t, e.bash("s", "pytest -s"), 10*time.Second, "LESSONS_CLI=/bin/false")
			if code != 0 || len(stderr) > 0 {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			oneObject(t, out)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("the hook took %v", d)
			}
		})
	}
}

// A rebuild that hangs is stopped at its deadline; the hook answers from
// the manifest it has, and the next calls do not wait on it again.
func TestHangingRebuildIsStopped(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	past := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(e.project, ".lessons"), past, past) // stale now
	cli := fakeBuild(t, e, "sleep 30")

	start := time.Now()
	out, _, code := e.hookOnce(t, e.bash("s1", "pytest -s tests/"), 10*time.Second, "LESSONS_CLI="+cli)
	if d := time.Since(start); code != 0 || d > 5*time.Second {
		t.Fatalf("hook with a hanging rebuild: exit %d after %v", code, d)
	}
	if !strings.Contains(string(out), "pytest-hangs-on-tty") {
		t.Errorf("hook answered %s, want the stale manifest's lesson", out)
	}
	if log := must(os.ReadFile(filepath.Join(e.state, "hook.log"))); !bytes.Contains(log, []byte("no answer within")) {
		t.Errorf("hook.log does not say why: %s", log)
	}
	start = time.Now()
	out, _, _ = e.hookOnce(t, e.bash("s2", "pytest -s tests/"), 10*time.Second, "LESSONS_CLI="+cli)
	if d := time.Since(start); d > time.Second {
		t.Errorf("the next call waited %v on the failed rebuild again", d)
	}
	if !strings.Contains(string(out), "pytest-hangs-on-tty") {
		t.Errorf("next call answered %s", out)
	}
}

// fakeBuild is a lessons-cli whose `build --quiet` runs script.
func fakeBuild(t *testing.T, e *env, script string) string {
	t.Helper()
	p := filepath.Join(e.root, "fake-cli")
	body := "#!/bin/sh\n[ \"$1 $2\" = \"build --quiet\" ] || exit 3\n" + script + "\n"
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// rewriteInPlace rewrites the file at path in place, 512 bytes at a
// time, with full and small in turn, until the returned stop is called:
// a manifest changing under the hook as a careless tool would write it.
func rewriteInPlace(path string, full, small []byte) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			data := full
			if i%2 == 1 {
				data = small
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				continue
			}
			for off := 0; off < len(data); off += 512 {
				f.Write(data[off:min(off+512, len(data))])
			}
			f.Close()
		}
	}()
	return func() { close(done); wg.Wait() }
}

// The hook log quotes the payload (its event name, its cwd) in its
// notes; a person reads it with cat or tail -f, so a payload's escape
// sequences must not reach it, nor split a note over two lines.
func TestHookLogHasNoControlCharacters(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	payload := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/nonexistent\u001b]0;pwned\u0007\u001b[2J\n\u009b31m",` +
		`"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	// Any program will do for the CLI: the rebuild fails at chdir, and
	// the note quotes the cwd.
	out, _, code := e.hookOnce(t, payload, 5*time.Second, "LESSONS_CLI="+binary(t))
	if code != 0 {
		t.Fatalf("hook exited %d", code)
	}
	oneObject(t, out)
	log, err := os.ReadFile(filepath.Join(e.state, "hook.log"))
	if err != nil || bytes.Count(log, []byte("\n")) != 2 || !bytes.Contains(log, []byte("/nonexistent")) {
		t.Fatalf("hook.log = %q, %v; want two notes on the missing cwd", log, err)
	}
	if i := bytes.IndexFunc(log, func(r rune) bool {
		return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0
	}); i >= 0 {
		t.Errorf("hook.log holds a control character at %d: %q", i, log)
	}
}

// An agent, or a wrapper between it and the hook, that writes the
// payload and keeps stdin open must get the real answer at once, not
// the watchdog's {} six seconds later: here a force push is refused.
func TestStdinLeftOpenAnswersAtOnce(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	for _, platform := range []string{"claude", "codex", "gemini"} {
		start := time.Now()
		cmd, stdin, out := e.startHook(t, platform)
		payload := e.bash("open-"+platform, "git push --force origin main")
		if platform == "gemini" {
			payload = bytes.Replace(payload, []byte(`"PreToolUse"`), []byte(`"BeforeTool"`), 1)
			payload = bytes.Replace(payload, []byte(`"Bash"`), []byte(`"run_shell_command"`), 1)
		}
		stdin.Write(payload[:len(payload)/2]) // in two writes, as a pipe may deliver it
		time.Sleep(20 * time.Millisecond)
		stdin.Write(append(payload[len(payload)/2:], '\n'))
		err := cmd.Wait()
		elapsed := time.Since(start)
		stdin.Close()
		if err != nil {
			t.Fatalf("%s: hook: %v", platform, err)
		}
		oneObject(t, out.Bytes())
		if !bytes.Contains(out.Bytes(), []byte("force-with-lease")) {
			t.Errorf("%s: hook answered %s with stdin open, want the force push refused", platform, out.Bytes())
		}
		if elapsed > 2*time.Second {
			t.Errorf("%s: hook took %v with stdin open", platform, elapsed)
		}
	}
}

// What Antigravity CLI's next model call is to be told waits in the
// session's state, one file per lesson; a named pipe or a link to
// /dev/zero put there must not hang the hook or run it out of memory
// (agy reads no answer as a refusal), nor lose the lessons held beside.
func TestAntigravityHeldLessonsOnlyRegularFiles(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	e.runHookArgs(t, []string{"--platform", "antigravity", "--event", "PreToolUse"},
		agyCall("conv-h", "run_command", `{"CommandLine":"pytest -x tests/","Cwd":"$PROJECT"}`))
	held := engine.SessionOf(e.state, "conv-h").Dir + ".next-model-call"
	if err := syscall.Mkfifo(filepath.Join(held, "fifo"), 0o600); err != nil {
		t.Fatalf("no held lesson to plant beside (%v)", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(held, "zero")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary(t), "hook", "--platform", "antigravity", "--event", "PreInvocation")
	cmd.Env = e.vars()
	cmd.Stdin = strings.NewReader(`{"conversationId":"conv-h","workspacePaths":["` + e.project + `"],"stepIdx":4}`)
	start := time.Now()
	timer := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
	out, err := cmd.Output()
	timer.Stop()
	if elapsed := time.Since(start); err != nil || elapsed > 2*time.Second {
		t.Fatalf("PreInvocation: %v after %v, printed %q", err, elapsed, out)
	}
	if a := parseAgy(t, string(out)); len(a.InjectSteps) != 1 || !strings.Contains(a.InjectSteps[0].EphemeralMessage, "pytest-hangs-on-tty") {
		t.Errorf("PreInvocation = %s, want the held pytest lesson", out)
	}
}

// startHook starts the hook for platform in e, its stdin a pipe the test
// writes and closes, and returns its stdout's buffer.
func (e *env) startHook(t *testing.T, platform string) (*exec.Cmd, io.WriteCloser, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(binary(t), "hook", "--platform", platform)
	cmd.Env = e.vars()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdin, &out
}

// TestHostileFailureTextAnswersFast: what a failed call printed is
// anything; a megabyte line of start-up file names with no blank between
// them (each one's path would reach back to the line's start) is read by
// the built hook in bounded time, and the answer is one JSON object.
func TestHostileFailureTextAnswersFast(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	payload, _ := json.Marshal(map[string]any{
		"session_id": "hostile-failure", "cwd": e.project, "hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
		"tool_input": map[string]string{"command": "make"}, "tool_use_id": "toolu_h",
		"error": "Exit code 2\n" + strings.Repeat("a/.bashrc", 1<<17),
	})
	start := time.Now()
	out, _, code := e.hookOnce(t, payload, 10*time.Second)
	if d := time.Since(start); d > 2*time.Second || code != 0 {
		t.Errorf("hook took %v and exited %d on a 1.2 MB failure line, want under 2s and 0", d, code)
	}
	oneObject(t, out)
}
