package replay

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// traceCalls are the call lines of a trace.
func traceCalls(t *testing.T, trace string) []TraceCall {
	t.Helper()
	var out []TraceCall
	for _, line := range strings.Split(strings.TrimSpace(trace), "\n") {
		var c TraceCall
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		if c.Kind == "call" {
			out = append(out, c)
		}
	}
	return out
}

// learnedFires are the fires of learned lessons at a call.
func learnedFires(c TraceCall) []TraceFire {
	var out []TraceFire
	for _, f := range c.Fired {
		if f.Provisional {
			out = append(out, f)
		}
	}
	return out
}

// TestLearnMissingObjectAnyCommand: the workspace's core package is not
// built. `bun test` meets it in the first session, and building the
// package gets past it. When `bun run typecheck` prints the same error
// about the same package in the second session, the lesson comes with
// it, and the trace counts it shortened and addressing the failure; the
// same error about another package in the third brings nothing.
func TestLearnMissingObjectAnyCommand(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	s1 := newClaudeLog("s1", "/home/dev/shop", start)
	s1.bash("bun test packages/app", "bun test v1.2.0\n\n# Unhandled error between tests\n"+
		"error: Cannot find module '@shop/core' from '/home/dev/shop/packages/app/src/a.test.ts'\n\n 0 pass\n 1 fail", true)
	s1.bash("bun run --filter @shop/core build", "$ tsc -p tsconfig.json", false)
	s1.bash("bun test packages/app", " 4 pass\n 0 fail", false)
	s1.write(t, dir)
	s2 := newClaudeLog("s2", "/home/dev/shop", start.Add(time.Hour))
	s2.bash("bun run typecheck", "$ tsc --noEmit\nsrc/index.ts(1,22): error TS2307: Cannot find module '@shop/core' or its corresponding type declarations.", true)
	s2.bash("git status", "nothing to commit", false)
	s2.write(t, dir)
	s3 := newClaudeLog("s3", "/home/dev/shop", start.Add(2*time.Hour))
	s3.bash("bun run typecheck", "$ tsc --noEmit\nsrc/index.ts(1,22): error TS2307: Cannot find module '@shop/web' or its corresponding type declarations.", true)
	s3.write(t, dir)
	rep, trace := learnAll(t, dir)
	if rep.Learn.Shortened != 1 || rep.Learn.LearnedFiresBeforeFine != 0 {
		t.Errorf("%d shortened, %d learned fires before fine calls; want 1, 0", rep.Learn.Shortened, rep.Learn.LearnedFiresBeforeFine)
	}
	for _, c := range traceCalls(t, trace) {
		if c.Outcome != "failed" || c.Session == "s1" {
			continue
		}
		var fired []string
		for _, f := range learnedFires(c) {
			fired = append(fired, fmt.Sprintf("%s at %s addresses %v", f.Slug, f.At, f.Addresses))
		}
		switch c.Session {
		case "s2":
			if c.Verdict != VerdictShortened || len(fired) != 1 || !strings.HasSuffix(fired[0], "at after addresses true") {
				t.Errorf("%s %q: verdict %q, learned fires %v; want shortened by one fire after it that addresses it", c.Session, c.Command, c.Verdict, fired)
			}
		case "s3":
			if len(fired) != 0 {
				t.Errorf("%s %q: learned fires %v on another package's error; want none", c.Session, c.Command, fired)
			}
		}
	}
}

// TestLearnRepeatUnderAnotherPackagesPrefix: a monorepo runner prints
// every line under the package and task it ran. The same test error
// printed under another package in the next session is the same error:
// a repeat, whose lesson on the error comes with it.
func TestLearnRepeatUnderAnotherPackagesPrefix(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	out := func(pkg string) string {
		var b strings.Builder
		b.WriteString("$ turbo run test\n• Running test in 2 packages\n")
		for _, l := range []string{"cache miss, executing 4f2a", "$ vitest run", "", " FAIL  src/db.test.ts > connects",
			"Error: connect ECONNREFUSED 127.0.0.1:5432", " ❯ src/db.test.ts:4:9", "", " Test Files  1 failed (1)", "ERROR: command finished with error"} {
			b.WriteString(pkg + ":test: " + l + "\n")
		}
		b.WriteString("\n Tasks:    0 successful, 1 total\n")
		return b.String()
	}
	for i, pkg := range []string{"@shop/api", "@shop/worker"} {
		l := newClaudeLog(fmt.Sprintf("s%d", i+1), "/home/dev/shop", start.Add(time.Duration(i)*time.Hour))
		l.bash("bun run test", out(pkg), true)
		l.bash("docker compose up -d db", "Container db Started", false)
		l.bash("bun run test", " Tasks:    2 successful, 2 total", false)
		l.write(t, dir)
	}
	rep, trace := learnAll(t, dir)
	if rep.Repeated != 1 || rep.Learn.Shortened+rep.Learn.Prevented != 1 {
		t.Errorf("%d repeated, %d shortened, %d prevented; want 1 repeat, caught", rep.Repeated, rep.Learn.Shortened, rep.Learn.Prevented)
	}
	for _, c := range traceCalls(t, trace) {
		if c.Outcome == "failed" && (strings.Contains(c.Class, "@shop") || strings.Contains(c.Class, ":test:")) {
			t.Errorf("%s: class %q names the package the runner ran", c.Session, c.Class)
		}
	}
}
