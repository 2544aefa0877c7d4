package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

var injectedComment = regexp.MustCompile(`<!-- lessons injected: ([^;>]*?)(;| -->)`)

// TestReplayAgreesWithHook runs the same sessions through the hook
// (session files, event log) and through Replay (claims in memory), and
// wants the same lessons injected, the same blocks and the same bytes,
// for an agent that reads lessons before the call and for one that reads
// them with the next prompt.
func TestReplayAgreesWithHook(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, ".lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": root, "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state"}
	getenv := func(k string) string { return env[k] }
	ls := syntheticLessons(300)
	ls = append(ls, lesson("no-force-push", lessons.Trigger{Commands: []string{`git\s+push\s+--force\b`}}))
	ls[len(ls)-1].Block = true
	mg := merged(ls...)
	mg.Project = project
	mg.Config.InjectionBudgetBytes = 900 // small, so the budget drops and shortens lessons
	m, err := Compile(mg, scope.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteManifest(scope.DefaultDirs(getenv).ManifestPath(project)); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	fires := map[string]int{}
	blocks := 0
	for _, platform := range []string{"claude", "codex"} {
		for sess := range 20 {
			id := fmt.Sprintf("%s-%d", platform, sess)
			rs := (&Replay{Manifest: m, Config: mg.Config}).Session()
			for i := range 30 {
				var cmd string
				if rng.IntN(10) == 0 {
					cmd = "git push --force origin main"
				} else {
					// the command a synthetic lesson's slug names, often one
					// whose lesson has no command trigger
					n := rng.IntN(40)
					tool, sub, _ := strings.Cut(strings.TrimSuffix(ls[n].Slug, fmt.Sprintf("-lesson-%04d", n)), "-")
					cmd = fmt.Sprintf("%s %s%d", tool, sub, n)
				}
				payload := fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q}}`,
					id, project, cmd)
				if platform == "codex" {
					payload = strings.Replace(payload, `{"session_id"`, `{"turn_id":"t","session_id"`, 1)
				}
				hookOut := runHookPayload(t, getenv, platform, payload)
				ans, err := rs.Call(i, Call{Tool: "Bash", Command: cmd})
				if err != nil {
					t.Fatal(err)
				}
				compareAnswer(t, fmt.Sprintf("%s call %d %q", id, i, cmd), hookOut, ans)
				fires[platform] += len(ans.Fires)
				if ans.Block != nil {
					blocks++
				}
			}
		}
	}
	if fires["claude"] == 0 || fires["codex"] == 0 || blocks == 0 {
		t.Errorf("fires %v, blocks %d: the sessions should inject before Claude Code's and Codex's calls, and block", fires, blocks)
	}
}

func runHookPayload(t *testing.T, getenv func(string) string, platform, payload string) map[string]any {
	t.Helper()
	var out bytes.Buffer
	(&Hook{Getenv: getenv, Platform: Platforms[platform]}).Run(strings.NewReader(payload), &out)
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("hook answered %q: %v", out.String(), err)
	}
	return v
}

func compareAnswer(t *testing.T, what string, hookOut map[string]any, ans Answer) {
	t.Helper()
	spec, _ := hookOut["hookSpecificOutput"].(map[string]any)
	decision, _ := spec["permissionDecision"].(string)
	text, _ := spec["additionalContext"].(string)
	if (decision == "deny" || decision == "ask") != (ans.Block != nil) {
		t.Fatalf("%s: hook decision %q, replay block %v", what, decision, ans.Block)
	}
	var want []string
	if m := injectedComment.FindStringSubmatch(text); m != nil {
		want = strings.Split(m[1], ", ")
	}
	var got []string
	for _, f := range ans.Fires {
		got = append(got, f.Slug)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s: replay injected %v, hook %v", what, got, want)
	}
	if len(text) != ans.Bytes {
		t.Fatalf("%s: replay counted %d bytes, hook injected %d", what, ans.Bytes, len(text))
	}
}
