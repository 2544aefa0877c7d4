//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// These tests hold the rule of issue 20: a blocking lesson's refusal
// never depends on a file the agent can create or a state it can leave
// behind. Each drives the built binary.

// denied reports whether the hook's answer refuses the call.
func denied(out []byte) bool { return bytes.Contains(out, []byte(`"permissionDecision":"deny"`)) }

// builtins are the lessons of lessons.d, as lessons-cli loads them.
func builtins(t *testing.T) []scope.Resolved {
	t.Helper()
	rs, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return rs
}

// noAggregates is the default config without aggregates, which the
// built-in lessons would otherwise warn about.
func noAggregates() lessons.Config {
	c := lessons.DefaultConfig()
	c.AggregateMinLessons = 1 << 20
	return c
}

// refuseQuickly runs the hook on `rm -rf ~` and fails unless it refuses
// within limit.
func (e *env) refuseQuickly(t *testing.T, limit time.Duration, extraEnv ...string) {
	t.Helper()
	start := time.Now()
	out, stderr, code := e.hookOnce(t, e.bash("s", "rm -rf ~"), 10*time.Second, extraEnv...)
	d := time.Since(start)
	if code != 0 || len(stderr) > 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if !denied(out) {
		t.Errorf("rm -rf ~ answered %s after %v, want a refusal", out, d)
	} else if d > limit {
		t.Errorf("rm -rf ~ refused after %v, want within %v", d, limit)
	}
}

// Item 6: lessons installed without lessons-cli, and no manifest yet.
func TestBuiltinBlocksWithoutCLIOrManifest(t *testing.T) {
	e := newEnv(t)
	e.refuseQuickly(t, 2*time.Second) // LESSONS_CLI names no file
	// A call no built-in blocks still gets {}, and the log says why.
	out, _, _ := e.hookOnce(t, e.bash("s", "ls ~"), 10*time.Second)
	if strings.TrimSpace(string(out)) != "{}" {
		t.Errorf("ls ~ answered %s", out)
	}
	if log := must(os.ReadFile(filepath.Join(e.state, "hook.log"))); !bytes.Contains(log, []byte("lessons-cli not found")) {
		t.Errorf("hook.log does not say lessons-cli is missing: %s", log)
	}
}

// Item 11: a rebuild lock left behind (a watchdog's exit skips the
// unlock) with no manifest: the refusal does not wait for it.
func TestLeftoverLockDoesNotDelayBlocks(t *testing.T) {
	e := newEnv(t)
	path := e.dirs().ManifestPath(e.project)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path+".lock", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cli := fakeBuild(t, e, "exit 0")
	e.refuseQuickly(t, 2500*time.Millisecond, "LESSONS_CLI="+cli)
}

// Item 11: a lock whose holder has ended (its id is in it) is taken
// over at once, for calls no built-in blocks too.
func TestLeftoverLockOfEndedHook(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	path := e.dirs().ManifestPath(e.project)
	ready := filepath.Join(e.root, "ready.manifest")
	if err := os.Rename(path, ready); err != nil {
		t.Fatal(err)
	}
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(path+".lock", []byte(strconv.Itoa(ended.Process.Pid)), 0o600); err != nil {
		t.Fatal(err)
	}
	cli := fakeBuild(t, e, "cp "+shq(ready)+" "+shq(path))
	start := time.Now()
	out, _, _ := e.hookOnce(t, e.bash("s", "pytest -s tests/"), 10*time.Second, "LESSONS_CLI="+cli)
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("the call waited %v on the lock of an ended hook", d)
	}
	if !strings.Contains(string(out), "pytest-hangs-on-tty") {
		t.Errorf("answered %s, want the rebuilt manifest's lesson", out)
	}
}

// Item 10: a manifest cut short fails its checksum; with no CLI to
// rebuild it the built-in blocks still refuse.
func TestTornManifestStillBlocks(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, noAggregates(), append(builtins(t), fixtureLessons()...))
	path := e.dirs().ManifestPath(e.project)
	data := must(os.ReadFile(path))
	if err := os.WriteFile(path, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	e.refuseQuickly(t, 2*time.Second, "LESSONS_CLI=/bin/false")
}

// Item 10: while the manifest is rewritten in place, every `rm -rf ~`
// is refused: a checksum mismatch or a recovered fault falls back to the
// built-in blocks, not to {}.
func TestBlocksWhileManifestRewritten(t *testing.T) {
	e := newEnv(t)
	bs := builtins(t)
	e.writeManifest(t, noAggregates(), append(bs, fixtureLessons()...))
	path := e.dirs().ManifestPath(e.project)
	full := must(os.ReadFile(path))
	e.writeManifest(t, noAggregates(), bs)
	small := must(os.ReadFile(path))

	defer rewriteInPlace(path, full, small)()

	binary(t)
	missed := 0
	const runs = 150
	for i := range runs {
		out, stderr, code := e.hookOnce(t, e.bash("s"+strconv.Itoa(i), "rm -rf ~"), 10*time.Second, "LESSONS_CLI=/bin/false")
		if code != 0 || len(stderr) > 0 {
			t.Fatalf("run %d: exit %d, stderr:\n%s", i, code, stderr)
		}
		if !denied(out) {
			missed++
		}
	}
	if missed > 0 {
		t.Errorf("%d of %d calls of rm -rf ~ were not refused while the manifest was rewritten", missed, runs)
	}
}

// Item 12: a payload over the 32 MiB cap is not parsed, but a command
// the built-in blocks refuse is still refused; a long harmless command,
// or a large Write whose text names the command, is not.
func TestOversizedPayload(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	pad := strings.Repeat("all work and no play; ", (33<<20)/22)
	write := func(content string) []byte {
		p, _ := json.Marshal(map[string]any{
			"session_id": "s", "cwd": e.project, "hook_event_name": "PreToolUse", "tool_name": "Write",
			"tool_input": map[string]string{"file_path": filepath.Join(e.project, "notes.md"), "content": content},
		})
		return p
	}
	// tool_name after tool_input, as a payload may order its keys.
	late, _ := json.Marshal(map[string]any{"a": map[string]string{"command": "echo hi\nrm -rf \"$HOME\" # " + pad}})
	late = append(bytes.TrimSuffix(late, []byte("}")), []byte(`,"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash"}`)...)
	late = bytes.Replace(late, []byte(`{"a":`), []byte(`{"tool_input":`), 1)
	for _, c := range []struct {
		name    string
		payload []byte
		deny    bool
	}{
		{"rm first", e.bash("s", "rm -rf ~ # "+pad), true},
		{"rm last", e.bash("s", pad+"\nrm -rf ~"), true},
		{"tool name last", late, true},
		{"harmless", e.bash("s", "echo "+pad), false},
		{"write", write("rm -rf ~\n" + pad), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if len(c.payload) <= 32<<20 {
				t.Fatalf("payload of %d bytes is under the cap", len(c.payload))
			}
			start := time.Now()
			out, stderr, code := e.hookOnce(t, c.payload, 10*time.Second)
			if code != 0 || len(stderr) > 0 {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			oneObject(t, out)
			if denied(out) != c.deny {
				t.Errorf("answered %.300s, want refused = %v", out, c.deny)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// Item 3: a named pipe or a symlink at the event log or the hook log
// neither holds the answer nor redirects a line.
func TestLogsNeverHoldTheAnswer(t *testing.T) {
	for _, kind := range []string{"fifo", "fifo-with-reader", "symlink"} {
		t.Run(kind, func(t *testing.T) {
			e := newEnv(t)
			e.writeManifest(t, noAggregates(), builtins(t))
			os.MkdirAll(e.state, 0o700)
			target := filepath.Join(e.root, "target")
			if err := os.WriteFile(target, []byte("precious\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"events.jsonl", "hook.log"} {
				p := filepath.Join(e.state, name)
				var err error
				if kind == "symlink" {
					err = os.Symlink(target, p)
				} else {
					err = syscall.Mkfifo(p, 0o600)
				}
				if err != nil {
					t.Skip(err)
				}
				if kind == "fifo-with-reader" { // a reader that never reads
					r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
					if err != nil {
						t.Fatal(err)
					}
					defer r.Close()
				}
			}
			// A refusal logs an event; a missing CLI for the stale
			// manifest's rebuild writes a note to hook.log.
			past := time.Now().Add(-time.Hour)
			os.Chtimes(filepath.Join(e.project, ".lessons"), past, past)
			e.refuseQuickly(t, 2*time.Second)
			start := time.Now()
			out, _, _ := e.hookOnce(t, e.bash("s", "ls"), 10*time.Second)
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("a call that logs a note took %v", d)
			}
			oneObject(t, out)
			if got := must(os.ReadFile(target)); string(got) != "precious\n" {
				t.Errorf("the symlink's target now holds %q", got)
			}
		})
	}
}

// Item 8: the capture record's temporary file is never one the agent
// put there: a symlink or a pipe at the name today's code would pick
// (f-<hash>.tmp<PID>) is neither written through nor waited on.
func TestCaptureTempNotFollowed(t *testing.T) {
	for _, kind := range []string{"symlink", "fifo"} {
		t.Run(kind, func(t *testing.T) {
			e, record := failedOnce(t)
			target := filepath.Join(e.root, "target")
			if err := os.WriteFile(target, []byte("precious\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd, stdin, _ := e.startHook(t, "claude")
			tmp := record + ".tmp" + strconv.Itoa(cmd.Process.Pid)
			var err error
			if kind == "symlink" {
				err = os.Symlink(target, tmp)
			} else {
				err = syscall.Mkfifo(tmp, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			stdin.Write(e.failed("s", "npm test -- --ci", "Exit code 1\nstill broken"))
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("the hook took %v", d)
			}
			if got := must(os.ReadFile(target)); string(got) != "precious\n" {
				t.Errorf("the symlink's target now holds %q", got)
			}
			if fi, err := os.Lstat(record); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("the record is not a regular file: %v %v", fi, err)
			}
		})
	}
}

// Item 7: the rm -rf family of built-in blocks, through the built binary,
// with a manifest built from lessons.d and with none (the embedded set).
func TestRmFamilyBlocks(t *testing.T) {
	refused := []string{
		"/bin/rm -rf ~", `\rm -rf ~`, "command rm -rf ~", "builtin rm -rf /", "env rm -rf $HOME",
		"bash -c 'rm -rf ~'", `sh -c "rm -rf $HOME"`, "zsh -c 'rm -rf /*'", "x=~; rm -rf $x",
		"d=$HOME\nrm -rf \"$d\"", "find ~ -delete", "find / -type f -delete",
	}
	allowed := []string{
		"rm -rf ./build", "/bin/rm -rf ./build", "bash -c 'rm -rf build'", "find . -name '*.o' -delete",
		"x=~/build; rm -rf $x", "find ~/proj/dist -delete",
	}
	for _, withManifest := range []bool{true, false} {
		e := newEnv(t)
		if withManifest {
			e.writeManifest(t, noAggregates(), builtins(t))
		}
		for _, cmd := range refused {
			if out, _, _ := e.hookOnce(t, e.bash("s", cmd), 10*time.Second); !denied(out) {
				t.Errorf("manifest %v: %q answered %s, want a refusal", withManifest, cmd, out)
			}
		}
		for _, cmd := range allowed {
			if out, _, _ := e.hookOnce(t, e.bash("s", cmd), 10*time.Second); denied(out) {
				t.Errorf("manifest %v: %q was refused", withManifest, cmd)
			}
		}
	}
}

// A built-in block that asks does not stand in for a manifest that can
// still be built: the project's lesson that denies the call wins; only
// when no manifest can be had does the built-in ask answer.
func TestBuiltinAskWaitsForTheManifest(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	path := e.dirs().ManifestPath(e.project)
	ready := filepath.Join(e.root, "ready.manifest")
	if err := os.Rename(path, ready); err != nil {
		t.Fatal(err)
	}
	push := e.bash("s", "git push --force origin main")
	out, _, _ := e.hookOnce(t, push, 10*time.Second) // no lessons-cli
	if !bytes.Contains(out, []byte(`"permissionDecision":"ask"`)) {
		t.Errorf("with no manifest to be had, a force push answered %s, want the built-in ask", out)
	}
	os.Remove(path + ".failed") // the failed rebuild is not retried for 30 s
	cli := fakeBuild(t, e, "cp "+shq(ready)+" "+shq(path))
	out, _, _ = e.hookOnce(t, push, 10*time.Second, "LESSONS_CLI="+cli)
	if !denied(out) || !bytes.Contains(out, []byte("never overwrite others")) {
		t.Errorf("with a manifest to build, a force push answered %s, want the project lesson's denial", out)
	}
}

// A skill's shell line gets the built-in refusal too when no manifest
// can be had, named for its event.
func TestBuiltinBlocksSkillShellLine(t *testing.T) {
	e := newEnv(t)
	p, _ := json.Marshal(map[string]any{
		"session_id": "skill-1", "cwd": e.project, "hook_event_name": "PreSkillShellCommand",
		"tool_name": "Bash", "tool_input": map[string]string{"command": "rm -rf ~"}, "command_name": "cleanup",
	})
	out, _, _ := e.hookOnce(t, p, 10*time.Second)
	if !denied(out) || !bytes.Contains(out, []byte(`"hookEventName":"PreSkillShellCommand"`)) {
		t.Errorf("a skill's rm -rf ~ with no manifest answered %s", out)
	}
}

// A command long and repetitive enough that the blocking lessons'
// backtracking patterns run out of time, even on their second try, is
// not let through unchecked: a person is asked, before the watchdog.
func TestBlockUncheckedInTimeAsks(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, noAggregates(), builtins(t))
	cmd := strings.Repeat("rm -r x; ", (16<<20)/9) + "rm -rf ~"
	start := time.Now()
	out, stderr, code := e.hookOnce(t, e.bash("s", cmd), 10*time.Second)
	d := time.Since(start)
	if code != 0 || len(stderr) > 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	oneObject(t, out)
	if !denied(out) && !bytes.Contains(out, []byte(`"permissionDecision":"ask"`)) {
		t.Errorf("a 16 MiB rm chain ending in rm -rf ~ answered %.300s after %v, want a refusal or an ask", out, d)
	}
	if d > 6*time.Second {
		t.Errorf("took %v, want an answer before the 6 s watchdog", d)
	}
}
