package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/scope"
)

// TestReplayAfterFailureAgreesWithHook runs failed calls through the hook
// (Claude Code's PostToolUseFailure, claims in session files) and through
// Replay.AfterFailure, and wants the same lessons on their errors given,
// with the same bytes, after the same calls, and never before one; some
// said again, their error having come back (sayAgain).
func TestReplayAfterFailureAgreesWithHook(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, ".lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": root, "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state"}
	getenv := func(k string) string { return env[k] }
	ls := append(syntheticLessons(100), syntheticErrorLessons(40)...)
	mg := merged(ls...)
	mg.Project = project
	mg.Config.InjectionBudgetBytes = 600
	m, err := Compile(mg, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteManifest(scope.DefaultDirs(getenv).ManifestPath(project)); err != nil {
		t.Fatal(err)
	}
	classes := []string{"ModuleNotFoundError: No module named x", "EADDRINUSE", "relation t does not exist", "permission denied",
		"npm ERR! missing script", "error[E0425]", "cannot find module", "fatal: not a git repository"}
	rng := rand.New(rand.NewPCG(5, 8))
	after, again := 0, 0
	for sess := range 10 {
		id := fmt.Sprintf("after-%d", sess)
		heard := map[string]int{}
		rs := (&Replay{Manifest: m, Config: mg.Config}).Session()
		var cmd, output string
		for i := range 20 {
			if i == 0 || rng.IntN(4) > 0 { // else the agent runs it again
				n := rng.IntN(40)
				cmd = fmt.Sprintf("tool%d run", n)
				if rng.IntN(3) == 0 {
					cmd = "other run"
				}
				output = fmt.Sprintf("Exit code 1\n%s in case%d", classes[rng.IntN(len(classes))], n)
			}
			call := Call{Tool: "Bash", Command: cmd}
			pre := fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q}}`, id, project, cmd)
			ans, err := rs.Call(2*i, call)
			if err != nil {
				t.Fatal(err)
			}
			compareAnswer(t, fmt.Sprintf("%s before call %d %q", id, i, cmd), runHookPayload(t, getenv, "claude", pre), ans)
			for _, f := range ans.Fires {
				if strings.HasPrefix(f.Slug, "error-lesson-") {
					t.Fatalf("a lesson on an error fired before a call: %s", f.Slug)
				}
			}
			errJSON, _ := json.Marshal(output)
			fail := fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":%q},"error":%s}`,
				id, project, cmd, errJSON)
			ans, err = rs.AfterFailure(2*i+1, call, output)
			if err != nil {
				t.Fatal(err)
			}
			compareAnswer(t, fmt.Sprintf("%s after call %d %q: %q", id, i, cmd, output), runHookPayload(t, getenv, "claude", fail), ans)
			for _, f := range ans.Fires {
				if !f.After {
					t.Errorf("fire %s after a failure is not marked After", f.Slug)
				}
				if heard[f.Slug]++; heard[f.Slug] > 1 {
					again++
				}
			}
			after += len(ans.Fires)
		}
	}
	if after == 0 || again == 0 {
		t.Errorf("lessons on an error fired %d times, %d of them again: the sessions should meet both", after, again)
	}
}
