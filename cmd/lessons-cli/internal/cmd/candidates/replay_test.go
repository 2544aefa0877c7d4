package candidates

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/replay"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// TestPromoteReplaysTheNewTrigger promotes the #lesson report about make
// deploy into a home whose Claude Code log of this week ran make deploy
// fine (a dry run) twice: the new lesson fires before it, and
// promote warns with the figures, unless --no-replay.
func TestPromoteReplaysTheNewTrigger(t *testing.T) {
	home := t.TempDir()
	log := `{"type":"assistant","sessionId":"w1","cwd":"/shop","uuid":"a1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make deploy --dry-run"}}]}}
{"type":"user","sessionId":"w1","cwd":"/shop","uuid":"r1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"deployed"}]}}
`
	for _, name := range []string{"w1.jsonl", "w2.jsonl"} {
		p := filepath.Join(home, ".claude", "projects", "shop", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(log, "w1", strings.TrimSuffix(name, ".jsonl"))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	for _, noReplay := range []bool{false, true} {
		w := newWorld(t, projectTag)
		ios, _, _, errOut := iostreams.Test()
		opts := &PromoteOptions{IO: ios, IDs: []string{w.candidates(t, false)[0].ID}, NoReplay: noReplay,
			Promoter: func() (*Promoter, error) { return w.promoter(nil), nil },
			Replay: func(l lessons.Lesson, cfg lessons.Config) string {
				return replay.Preview(context.Background(), l, cfg, getenv)
			}}
		if err := promoteRun(opts); err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(errOut.String(), "would have fired 2 times in the last 7 days, 0 of them before a failure and 2 before a call that went fine (its trigger matched 2 of 2 calls in 2 sessions)")
		if warned == noReplay {
			t.Errorf("promote (no replay: %v), stderr:\n%s", noReplay, errOut)
		}
	}
}
