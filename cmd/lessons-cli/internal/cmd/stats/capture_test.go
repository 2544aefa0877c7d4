package stats

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// TestStatsNudges joins the hook's nudges with the scan: the fixture
// Claude session cc-1 has a #lesson block, cc-2 has none.
func TestStatsNudges(t *testing.T) {
	state := t.TempDir()
	now := time.Now()
	nudge := func(agent, session string) engine.Event {
		return engine.Event{Time: now, Session: engine.SessionHash(session), Event: engine.EventNudge, Hook: "PostToolUse",
			Tool: "Bash", Trigger: "fix", Agent: agent}
	}
	var log strings.Builder
	for _, e := range []engine.Event{nudge("claude", "cc-1"), nudge("claude", "cc-1"), nudge("claude", "cc-2"), nudge("codex", "cx-9"),
		{Time: now, Session: "s", Slug: "git-push", Event: engine.EventInject, Hook: "PreToolUse"}} {
		b, _ := json.Marshal(e)
		log.Write(append(b, '\n'))
	}
	if err := os.WriteFile(engine.EventsPath(state), []byte(log.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	fixtures, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "..", "testdata", "scanner", "claude"))
	if _, err := scanner.Scan(t.Context(), scanner.Options{StateDir: state, Paths: []string{fixtures},
		Now: func() time.Time { return now.Add(24 * time.Hour) }}); err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := iostreams.Test()
	opts := &Options{IO: ios, State: state, Now: func() time.Time { return now }, Days: 30, JSON: true,
		Merge: func() (scope.Merged, error) { return scope.Merged{}, nil }}
	if err := statsRun(opts); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Lessons []map[string]any `json:"lessons"`
		Nudges  []map[string]any `json:"nudges"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	want := []map[string]any{
		{"agent": "claude", "nudges": 3.0, "sessions": 2.0, "sessionsWithLesson": 1.0},
		{"agent": "codex", "nudges": 1.0, "sessions": 1.0, "sessionsWithLesson": 0.0},
	}
	if len(rep.Nudges) != len(want) {
		t.Fatalf("nudges = %v, want %v", rep.Nudges, want)
	}
	for i := range want {
		for k, v := range want[i] {
			if rep.Nudges[i][k] != v {
				t.Errorf("nudges[%d][%s] = %v, want %v", i, k, rep.Nudges[i][k], v)
			}
		}
		if len(rep.Nudges[i]) != len(want[i]) {
			t.Errorf("nudges[%d] has fields %v", i, rep.Nudges[i])
		}
	}
	if len(rep.Lessons) != 1 {
		t.Errorf("a nudge was counted as a lesson: %v", rep.Lessons)
	}

	ios, _, out, _ = iostreams.Test()
	opts.IO, opts.JSON = ios, false
	if err := statsRun(opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "live capture") || !strings.Contains(out.String(), "claude\t3\t2\t1") {
		t.Errorf("stats:\n%s", out)
	}
}
