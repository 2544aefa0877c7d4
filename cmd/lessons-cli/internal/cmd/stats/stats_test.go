package stats

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/clitest"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

func TestStats(t *testing.T) {
	state := t.TempDir()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	events := []engine.Event{
		{Time: now.AddDate(0, 0, -1), Session: "s1", Slug: "git-push", Event: "block", Hook: "PreToolUse"},
		{Time: now.AddDate(0, 0, -2), Session: "s2", Slug: "git-push", Event: "inject", Hook: "PreToolUse"},
		{Time: now.AddDate(0, 0, -2), Session: "s2", Slug: "git-push", Event: "inject", Hook: "PreToolUse"},
		{Time: now.AddDate(0, 0, -40), Session: "s3", Slug: "old-one", Event: "inject", Hook: "PreToolUse"},
	}
	var log strings.Builder
	for _, e := range events {
		b, _ := json.Marshal(e)
		log.Write(append(b, '\n'))
	}
	if err := os.WriteFile(engine.EventsPath(state), []byte(log.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	active := []scope.Resolved{
		clitest.Resolved("global", "git-push", `git push`), clitest.Resolved("global", "old-one", `old`),
		clitest.Resolved("project", "never-used", `never`),
	}
	// A scan of the fixture logs, a day on so every session is settled.
	fixtures, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "..", "testdata", "scanner"))
	if _, err := scanner.Scan(t.Context(), scanner.Options{StateDir: state, Paths: []string{fixtures},
		Now: func() time.Time { return time.Now().Add(24 * time.Hour) }}); err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := iostreams.Test()
	opts := &Options{IO: ios, State: state, Now: func() time.Time { return now }, Days: 30, JSON: true,
		Merge: func() (scope.Merged, error) { return scope.Merged{Active: active}, nil }}
	if err := statsRun(opts); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Lessons []map[string]any `json:"lessons"`
		Idle    []string         `json:"idle"`
		Days    int              `json:"idleDays"`
		Agents  []scanner.AgentReport
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	if len(rep.Lessons) != 2 || rep.Lessons[0]["slug"] != "git-push" || rep.Lessons[0]["injections"] != 2.0 ||
		rep.Lessons[0]["blocks"] != 1.0 || rep.Lessons[0]["sessions"] != 2.0 || rep.Lessons[0]["lastUsed"] == nil {
		t.Errorf("stats lessons = %v", rep.Lessons)
	}
	if strings.Join(rep.Idle, " ") != "never-used old-one" || rep.Days != 30 {
		t.Errorf("idle in 30 days = %v (%d), want never-used old-one", rep.Idle, rep.Days)
	}
	if len(rep.Agents) == 0 || rep.Agents[0].Agent != "claude" || rep.Agents[0].Tags != 1 || rep.Agents[0].Sessions != 1 {
		t.Errorf("stats agents = %+v, want claude first with 1 session and 1 tag", rep.Agents)
	}

	ios, _, out, _ = iostreams.Test()
	opts.IO, opts.JSON, opts.Days = ios, false, 60
	if err := statsRun(opts); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "git-push\t2\t1\t2\t") || !strings.Contains(out.String(), "active lessons that never fired in the last 60 days (1):\n  never-used\n") {
		t.Errorf("stats --days 60:\n%s", out)
	}
	if !strings.Contains(out.String(), "#lesson protocol compliance") {
		t.Errorf("stats lacks the compliance table:\n%s", out)
	}
}

// TestStatsLongLine: a line of the event log over 1 MiB (a corrupt or
// hostile write) is skipped and counted; the events around it count.
func TestStatsLongLine(t *testing.T) {
	state := t.TempDir()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ev, _ := json.Marshal(engine.Event{Time: now.Add(-time.Hour), Session: "s1", Slug: "git-push", Event: "block", Hook: "PreToolUse"})
	long := `{"slug":"` + strings.Repeat("x", 3<<20) + `"}`
	log := string(ev) + "\n" + long + "\n" + string(ev) + "\n" + long // the last without a newline
	if err := os.WriteFile(engine.EventsPath(state), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, out, errOut := iostreams.Test()
	opts := &Options{IO: ios, State: state, Now: func() time.Time { return now }, Days: 30,
		Merge: func() (scope.Merged, error) { return scope.Merged{}, nil }}
	if err := statsRun(opts); err != nil {
		t.Fatalf("stats with a 3 MiB line: %v", err)
	}
	if !strings.HasPrefix(out.String(), "git-push\t0\t2\t1\t") {
		t.Errorf("stats did not count the events around the long lines:\n%s", out)
	}
	if !strings.Contains(errOut.String(), "2 lines of the event log were over 1 MiB") {
		t.Errorf("stats does not say it skipped the long lines: %q", errOut)
	}
}
