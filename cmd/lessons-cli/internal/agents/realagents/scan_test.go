package realagents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons/scanner"
)

// tagMark is in the problem of the #lesson block the model writes, so
// that the scan's tag candidate can be told from anything else.
const tagMark = "LESSONS-E2E-SCAN-TAG"

// scanLesson is the model's final text: a #lesson block in the
// protocol's format. It is on another command than deploy.sh: a block on
// the failure the session retried would take the retry in (a tag and a
// retry of the same failing call are one candidate, in the tag's words),
// and the test wants to see each read.
const scanLesson = "Deployed.\n\n#lesson\ntool: Bash\ntrigger: make check\nproblem: " + tagMark +
	" make check needs the fixtures built first\nsolution: run make fixtures before make check\n" +
	"tags: tool:make\nscope: project\n#/lesson\n"

// logRoots are where each agent writes its sessions under the world's
// home, as a user would name them to lessons scan --path.
var logRoots = map[string]string{
	"claude":   ".claude/projects",
	"codex":    ".codex/sessions",
	"gemini":   ".gemini/tmp",
	"opencode": ".local/share/opencode",
}

// TestScanReadsTheLog runs each agent on deploy.sh failing then fixed,
// ending with a #lesson block, then scans what the agent wrote the way a
// user would: lessons scan finding the logs by itself, lessons candidates
// --json, and lessons replay --path on the agent's log folder. The
// candidates must hold the retry (its fix naming --env) and the agent's
// report, each attributed to the agent and the project, and the replay
// must count the failing call as failed.
func TestScanReadsTheLog(t *testing.T) {
	for _, c := range agentRuns {
		t.Run(c.platform, func(t *testing.T) {
			w := deployWorld(t, c)
			w.lessons("install", "--platform", c.platform)
			shell := shellOf[c.platform]
			m := newModel(t, shape[c.platform], shell("./deploy.sh"), shell("./deploy.sh --env dev"), say(scanLesson))
			c.run(w, m)
			m.done()
			root := filepath.Join(w.home, logRoots[c.platform])
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("the agent's logs under %s:\n%s", root, listTree(root))
				}
			})
			// The session is over: age its files past the scan's idle
			// window (10 minutes; no flag or config changes it), as a
			// scan an hour later would find them.
			age(t, root, time.Hour)

			var rep scanner.Report
			out := w.lessons("scan", "--json")
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("lessons scan --json: %v\n%s", err, out)
			}
			read := 0
			for f, n := range rep.Formats {
				if f.Agent() == c.platform {
					read += n.Files
				}
			}
			if read == 0 || rep.Tags != 1 {
				t.Errorf("lessons scan read %d %s files and %d #lesson blocks, want some and 1:\n%s", read, c.platform, rep.Tags, out)
			}
			checkScanCandidates(t, w, c.platform)
			checkReplay(t, w, root, c.platform)
		})
	}
}

// checkScanCandidates asserts that lessons candidates --json holds the
// retry and the agent's #lesson report, both the agent's, in the world's
// project.
func checkScanCandidates(t *testing.T, w *world, platform string) {
	t.Helper()
	out := w.lessons("candidates", "--all", "--json")
	var cs []scanner.Candidate
	if err := json.Unmarshal([]byte(out), &cs); err != nil {
		t.Fatalf("lessons candidates --json: %v\n%s", err, out)
	}
	var retry, tag bool
	for _, c := range cs {
		if !hasString(c.Agents, platform) || !hasString(c.Projects, w.project) {
			continue
		}
		switch {
		case c.Kind == scanner.KindRetry && strings.Contains(c.Trigger, "./deploy.sh") && strings.Contains(c.Fixed+c.Solution, "--env"):
			retry = true
		case c.Kind == scanner.KindTag && strings.Contains(c.Problem, tagMark):
			tag = true
		}
	}
	if !retry || !tag {
		t.Errorf("the candidates hold the retry: %v, the #lesson report: %v; want both, by %s in %s:\n%s", retry, tag, platform, w.project, out)
	}
}

// checkReplay asserts that lessons replay, reading the agent's log
// folder, counts ./deploy.sh as failed and its fix as fine.
func checkReplay(t *testing.T, w *world, root, platform string) {
	t.Helper()
	trace := filepath.Join(w.root, "trace.jsonl")
	w.lessons("replay", "--path", root, "--trace", trace)
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	outcome := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct{ Kind, Agent, Command, Outcome string }
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("the trace: %v in %s", err, sc.Text())
		}
		if line.Kind == "call" && line.Agent == platform {
			outcome[line.Command] = line.Outcome
		}
	}
	if outcome["./deploy.sh"] != "failed" || outcome["./deploy.sh --env dev"] != "fine" {
		t.Errorf("the replay's outcomes by command: %v; want ./deploy.sh failed, ./deploy.sh --env dev fine", outcome)
	}
}

func hasString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// age sets back the modification time of every file under root by d.
func age(t *testing.T, root string, d time.Duration) {
	t.Helper()
	when := time.Now().Add(-d)
	err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, when, when)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// listTree is every file under root with its size, for a failure's log.
func listTree(root string) string {
	var b strings.Builder
	_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if fi, err := e.Info(); err == nil {
				rel, _ := filepath.Rel(root, p)
				fmt.Fprintf(&b, "  %s %d\n", rel, fi.Size())
			}
		}
		return nil
	})
	return b.String()
}
