package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"

	lessons "github.com/lessons-dev/lessons"
)

// TestBlocksHoldUnderLoad: with every core busy on purpose (four spinning
// processes and two spinning goroutines per core), every one of 1,000
// calls that a built-in blocking lesson refuses is refused. A wall-clock
// regex limit once skipped such lessons exactly when builds ran alongside.
func TestBlocksHoldUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the machine for several seconds")
	}
	rs, errs := repo.Loader{}.Lessons(scope.Store{Scope: lessons.ScopeBuiltin, Dir: scope.BuiltinDir, AllowBlock: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(project, ".lessons"), 0o755)
	env := map[string]string{"HOME": root, "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state"}
	getenv := func(k string) string { return env[k] }
	m, err := engine.Compile(scope.Merged{Project: project, Config: lessons.DefaultConfig(), Active: rs,
		Sources: []scope.Stamp{scope.StampOf(filepath.Join(project, ".lessons"))}}, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteManifest(scope.DefaultDirs(getenv).ManifestPath(project)); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 * runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for x := 0; ; x++ {
				select {
				case <-stop:
					return
				default:
				}
			}
		}()
	}
	var hogs []*exec.Cmd
	for range 4 * runtime.NumCPU() {
		hog := exec.Command("sh", "-c", "while :; do :; done")
		if err := hog.Start(); err == nil {
			hogs = append(hogs, hog)
		}
	}
	defer func() {
		close(stop)
		wg.Wait()
		for _, h := range hogs {
			h.Process.Kill()
			h.Wait()
		}
	}()

	commands := []string{"git push --force origin main", "rm -rf ~", "rm -rf $BUILD_DIR/", "terraform apply -auto-approve"}
	h := &engine.Hook{Getenv: getenv, Platform: engine.Platforms["claude"]}
	missed := 0
	for i := range 1000 {
		cmd := commands[i%len(commands)]
		payload, _ := json.Marshal(map[string]any{"session_id": fmt.Sprint("load-", i), "cwd": project,
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]string{"command": cmd}})
		var out bytes.Buffer
		h.Run(bytes.NewReader(payload), &out)
		var ans struct {
			HookSpecificOutput struct {
				PermissionDecision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		json.Unmarshal(out.Bytes(), &ans)
		if d := ans.HookSpecificOutput.PermissionDecision; d != "deny" && d != "ask" {
			missed++
			if missed < 5 {
				t.Errorf("call %d, %q: answered %s", i, cmd, out.Bytes())
			}
		}
	}
	if missed > 0 {
		log, _ := os.ReadFile(engine.HookLogPath(root + "/state/lessons"))
		t.Errorf("%d of 1,000 blocking decisions missed under load; hook.log:\n%s", missed, log)
	}
}
