package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scanner"
	"github.com/lessons-dev/lessons/scope"
)

// TestResumedCopyIsNoCall: a resumed Claude Code session's log starts
// with the calls of the session it resumed, ids and all, then goes on.
// The copies were made once, in the first log: the replay does not run
// them through the lessons, counts them nowhere and marks them in the
// trace. So the lesson the first session taught is still unsaid when the
// resumed session makes the mistake anew, and catches it.
func TestResumedCopyIsNoCall(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	first := newClaudeLog("s1", "/home/dev/shop", start)
	first.bash("npm test -- --runInBand", "Unknown option: --runInBand", true)
	first.bash("npm test", "12 passed", false)
	first.write(t, dir)
	// the resumed log: the first one's lines, then a call of its own
	resumed := newClaudeLog("s2", "/home/dev/shop", start.Add(time.Hour))
	resumed.b.Reset()
	resumed.b.WriteString(first.b.String())
	resumed.n = first.n
	resumed.bash("npm test -- --runInBand", "Unknown option: --runInBand", true)
	resumed.write(t, dir)
	// call ids as Claude Code draws them: unique across sessions
	ids := regexp.MustCompile(`"(id|tool_use_id)":"t(\d+)"`)
	for _, name := range []string{"s1.jsonl", "s2.jsonl"} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b = ids.ReplaceAllFunc(b, func(m []byte) []byte {
			sm := ids.FindSubmatch(m)
			return []byte(fmt.Sprintf(`"%s":"toolu_01Xq7LmR4sTu9WvY2zAb%04s"`, sm[1], sm[2]))
		})
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, trace := learnAll(t, dir)
	calls := traceCalls(t, trace)
	if len(calls) != 5 {
		t.Fatalf("%d calls in the trace, want 2 + 3 (two of them copies)", len(calls))
	}
	for _, c := range calls[2:4] {
		if !c.Copy || c.Repeat || len(c.Fired) > 0 || c.Verdict != "" {
			t.Errorf("%s:%d %q: copy %v, repeat %v, fired %d, verdict %q: want a copy, not replayed", filepath.Base(c.File), c.Line, c.Command, c.Copy, c.Repeat, len(c.Fired), c.Verdict)
		}
	}
	if c := calls[4]; c.Copy || !c.Repeat || (c.Verdict != "prevented" && c.Verdict != "shortened") {
		t.Errorf("the resumed session's own call: copy %v, repeat %v, verdict %q: want a repeat the lesson caught", c.Copy, c.Repeat, c.Verdict)
	}
	if rep.Calls != 3 || rep.Failed != 2 {
		t.Errorf("report counts %d calls, %d failed: want 3 and 2, no copy", rep.Calls, rep.Failed)
	}
	if strings.Count(trace, `"copy":true`) != 2 {
		t.Errorf("trace marks %d copies, want 2", strings.Count(trace, `"copy":true`))
	}
	// a plain replay reads sessions in parallel: its copies are known
	// only in replay order, and counted nowhere all the same
	var plain bytes.Buffer
	rep, err := Run(context.Background(), Job{Merged: scope.Merged{Config: lessons.DefaultConfig()},
		Read: scanner.ReadOptions{Paths: []string{dir}}, Trace: &plain})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Calls != 3 || strings.Count(plain.String(), `"copy":true`) != 2 {
		t.Errorf("plain replay: %d calls, %d copies marked: want 3 and 2", rep.Calls, strings.Count(plain.String(), `"copy":true`))
	}
}
