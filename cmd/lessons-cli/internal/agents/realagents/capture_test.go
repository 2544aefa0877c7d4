package realagents

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/engine"
)

// Live capture's script: a project script that fails without --env
// (exit 2, its error on stderr), its fix, then a second failure and fix
// of the same family. No lesson matches deploy.sh, and it is no probe.
const (
	deployScript = `#!/bin/sh
if [ "$1" != "--env" ] || [ -z "$2" ]; then
	echo "error: --env is required" >&2
	exit 2
fi
echo "deployed to $2"
`
	deployError = "error: --env is required"
	// nudgeMark opens the nudge for a fix of deploy.sh's family.
	nudgeMark = "Live capture: `deploy.sh` failed earlier in this session"
)

// agentRun is an agent a deploy.sh test drives: what it needs set up
// first, and how it runs the prompt.
type agentRun struct {
	platform string
	setup    func(w *world)
	run      func(w *world, m *model)
}

// agentRuns are the four agents.
var agentRuns = []agentRun{
	{"claude", nil, func(w *world, m *model) { w.claude(m, prompt) }},
	{"codex", nil, func(w *world, m *model) { w.codex(m, prompt) }},
	{"gemini", (*world).geminiSettings, func(w *world, m *model) { w.gemini(m, prompt) }},
	{"opencode", nil, func(w *world, m *model) { w.opencode(m, prompt) }},
}

// deployWorld is a world whose project holds deploy.sh, set up for the
// agent c runs.
func deployWorld(t *testing.T, c agentRun) *world {
	w := newWorld(t)
	w.write(filepath.Join(w.project, "deploy.sh"), deployScript)
	if err := os.Chmod(filepath.Join(w.project, "deploy.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if c.setup != nil {
		c.setup(w)
	}
	return w
}

// captureSteps fail and fix deploy.sh twice, as shell names the call.
func captureSteps(shell func(string) step) []step {
	return []step{shell("./deploy.sh"), shell("./deploy.sh --env staging"), shell("./deploy.sh --env"),
		shell("./deploy.sh --env production"), say("All done.")}
}

// TestCapture runs each agent on captureSteps: the model must read the
// nudge once, right after the first fix, with the failure's error; the
// second fix of the family brings none (a family has one nudge a
// session), and the event log holds one nudge for the agent.
func TestCapture(t *testing.T) {
	for _, c := range agentRuns {
		t.Run(c.platform, func(t *testing.T) {
			w := deployWorld(t, c)
			w.lessons("install", "--platform", c.platform)
			m := newModel(t, shape[c.platform], captureSteps(shellOf[c.platform])...)
			c.run(w, m)
			m.done()
			checkCapture(t, w, m, c.platform)
		})
	}
}

// checkCapture asserts what the model saw of captureSteps and what the
// event log holds.
func checkCapture(t *testing.T, w *world, m *model, platform string) {
	t.Helper()
	once(t, "the request after the failing call", m.after(0), nudgeMark, 0)
	fix := m.after(1)
	once(t, "the request after the fix", fix, nudgeMark, 1)
	if !strings.Contains(nudgeLine(fix.Text), deployError) {
		t.Errorf("the nudge does not name the failure's error %q:\n%s", deployError, nudgeLine(fix.Text))
	}
	once(t, "the request after the second failure", m.after(2), nudgeMark, 1)
	once(t, "the request after the second fix", m.after(3), nudgeMark, 1)

	var nudges []engine.Event
	for _, e := range w.events() {
		if e.Event == engine.EventNudge {
			nudges = append(nudges, e)
		}
	}
	if len(nudges) != 1 || nudges[0].Agent != platform || nudges[0].Trigger != "fix" {
		t.Errorf("the event log holds nudges %+v, want one fix nudge to %s", nudges, platform)
	}
}

// nudgeLine is the line of text that holds the nudge, "" when none does.
func nudgeLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, nudgeMark) {
			return line
		}
	}
	return ""
}

// events reads the world's event log.
func (w *world) events() []engine.Event {
	w.t.Helper()
	f, err := os.Open(filepath.Join(w.home, ".local", "state", "lessons", "events.jsonl"))
	if err != nil {
		w.t.Fatalf("the event log: %v", err)
	}
	defer f.Close()
	var out []engine.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e engine.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			w.t.Fatalf("the event log: %v in %s", err, sc.Text())
		}
		out = append(out, e)
	}
	return out
}
