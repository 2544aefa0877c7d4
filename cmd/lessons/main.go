// Command lessons is the small front binary agents run before every tool
// call. It answers `lessons hook` in-process, linking only the root
// package, scope and engine so it starts in a few milliseconds, and
// hands every other command to lessons-cli, the full CLI.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lessons-dev/lessons/engine"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "hook" {
		os.Exit(hook(os.Args[2:]))
	}
	cli, tried := findCLI()
	if cli == "" {
		fmt.Fprintf(os.Stderr, "lessons: the full CLI (lessons-cli) is not installed; looked in: %s\n"+
			"Install it with: go install github.com/lessons-dev/lessons/cmd/...@latest\n", tried)
		os.Exit(1)
	}
	argv := append([]string{"lessons"}, os.Args[1:]...)
	err := handOff(cli, argv)
	fmt.Fprintf(os.Stderr, "lessons: run %s: %v\n", cli, err)
	os.Exit(1)
}

// hook runs `lessons hook [--platform NAME] [--event NAME]`. Without
// --platform it reads $LESSONS_AGENT_PLATFORM, else recognises the agent
// from the payload; --event names the event for agents whose payload
// does not (Antigravity CLI). It always exits 0: a hook that fails must
// not break the agent, so even a bad flag answers "{}" (or what lets
// the agent go on, where {} would refuse the call).
func hook(args []string) int {
	platform, event := "", ""
	for i := 0; i < len(args); i++ {
		for _, f := range []struct {
			name string
			to   *string
		}{{"--platform", &platform}, {"--event", &event}} {
			switch a := args[i]; {
			case a == f.name && i+1 < len(args):
				*f.to = args[i+1]
				i++
			case strings.HasPrefix(a, f.name+"="):
				*f.to = a[len(f.name)+1:]
			}
		}
	}
	engine.SetTimeoutCheckPeriod()
	p, unknown := engine.ChoosePlatform(platform, os.Getenv)
	if unknown != "" {
		fmt.Fprintf(os.Stderr, "lessons hook: unknown platform %q (known: %s)\n", unknown, engine.PlatformNames)
	}
	// Whatever happens below, the agent gets one JSON object in time: the
	// watchdog answers {} and ends the process if the hook has not
	// answered by hookDeadline, well within the agents' own limits.
	out := &answerOnce{w: os.Stdout}
	time.AfterFunc(hookDeadline, func() {
		if out.write(engine.SilenceFor(p, event)) {
			os.Exit(0)
		}
	})
	// The answer goes out as soon as it is decided: Run logs after it.
	h := &engine.Hook{Platform: p, Event: event, Rebuild: rebuild, OnStartup: startScan}
	h.Run(os.Stdin, out)
	out.write(engine.SilenceFor(p, event)) // Run wrote nothing: still one answer
	return 0
}

// hookDeadline bounds a whole hook call; agents wait 10 s at most.
const hookDeadline = 6 * time.Second

// answerOnce writes the hook's answer exactly once, from the hook or
// from its watchdog, whichever comes first.
type answerOnce struct {
	mu      sync.Mutex
	w       io.Writer
	written bool
}

// Write is write, for Hook.Run, which writes its answer in one Write.
func (a *answerOnce) Write(b []byte) (int, error) {
	a.write(b)
	return len(b), nil
}

// write writes b unless an answer was written already; it reports
// whether it wrote.
func (a *answerOnce) write(b []byte) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.written {
		return false
	}
	a.written = true
	a.w.Write(b)
	return true
}

// rebuild runs `lessons-cli build --quiet` in dir: the rare path, when
// the manifest is missing or its sources changed.
func rebuild(dir string) error {
	cli, tried := findCLI()
	if cli == "" {
		return fmt.Errorf("lessons-cli not found (looked in: %s)", tried)
	}
	var out bytes.Buffer
	cmd := exec.Command(cli, "build", "--quiet")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 100 * time.Millisecond // a child's child may hold the pipe
	if err := cmd.Start(); err != nil {
		return err
	}
	var late atomic.Bool
	stop := time.AfterFunc(engine.RebuildDeadline, func() {
		late.Store(true)
		cmd.Process.Kill()
	})
	err := cmd.Wait()
	stop.Stop()
	if late.Load() {
		return fmt.Errorf("%s build gave no answer within %v and was stopped", cli, engine.RebuildDeadline)
	}
	if err != nil {
		return fmt.Errorf("%s build: %w: %s", cli, err, out.Bytes())
	}
	return nil
}

// findCLI locates lessons-cli: $LESSONS_CLI, then beside this binary
// (symlinks resolved), then on PATH. It returns where it looked too.
func findCLI() (path, tried string) {
	var places []string
	if p := os.Getenv("LESSONS_CLI"); p != "" {
		if isExecutable(p) {
			return p, ""
		}
		places = append(places, "$LESSONS_CLI="+p)
	}
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), cliName)
		if isExecutable(p) {
			return p, ""
		}
		places = append(places, p)
	}
	if p, err := exec.LookPath(cliName); err == nil {
		return p, ""
	}
	places = append(places, "$PATH")
	return "", strings.Join(places, ", ")
}
