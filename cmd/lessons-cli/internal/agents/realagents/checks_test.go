package realagents

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/engine"
)

// injected is what every injection's text ends with, whatever the agent.
const injected = "lessons injected"

// core is the script every agent runs first: the probe, an unrelated
// call, the forbidden call, the probe again. shell makes a shell call as
// the agent names it.
func core(shell func(string) step) []step {
	return []step{shell(probe), shell("ls"), shell(forbidden), shell(probe)}
}

// checkCore asserts what the model saw of core's steps, run from the
// first request of a session: the protocol and the session-start lesson
// once before the first call, the probe's lesson right after it, nothing
// new after ls, the block's reason after the forbidden call, which did not
// run, and nothing again after the second probe.
func checkCore(t *testing.T, w *world, m *model) {
	t.Helper()
	first := m.conversation()[0]
	if first.Step != 0 {
		t.Fatalf("the first request answered step %d", first.Step)
	}
	once(t, "the first request", first, protocolMark, 1)
	once(t, "the first request", first, startMark, 1)
	once(t, "the first request", first, callMark, 0)
	once(t, "the request after the probe", m.after(0), callMark, 1)
	if a, b := strings.Count(m.after(0).Text, injected), strings.Count(m.after(1).Text, injected); a != b {
		t.Errorf("ls brought up lessons: %d injections before it, %d after\n%s", a, b, excerpt(m.after(1).Text))
	}
	once(t, "the request after the forbidden call", m.after(2), blockMark, 1)
	if w.exists("ran.txt") {
		t.Error("the forbidden call ran: ran.txt exists")
	}
	once(t, "the request after the second probe", m.after(3), callMark, 1)
	if a, b := strings.Count(m.after(2).Text, injected), strings.Count(m.after(3).Text, injected); a != b {
		t.Errorf("the second probe brought up lessons again: %d injections before it, %d after\n%s", a, b, excerpt(m.after(3).Text))
	}
}

// push is refused by a built-in lesson whose decision is ask: a person
// must approve a force push.
const push = "git push --force origin main"

// checkAsk asserts that the request after step i, the push, tells the
// model that a person must approve it (note is how the platform says so:
// none of the agents asks the user from a non-interactive run).
func checkAsk(t *testing.T, m *model, i int, note string) {
	t.Helper()
	if r := m.after(i); !strings.Contains(r.Text, "force-pushes without a lease") || !strings.Contains(r.Text, note) {
		t.Errorf("the request after the force push (step %d) does not say %q:\n%s", r.Step, note, excerpt(r.Text))
	}
}

// once fails unless mark occurs want times in the request's text.
func once(t *testing.T, what string, r request, mark string, want int) {
	t.Helper()
	if got := strings.Count(r.Text, mark); got != want {
		t.Errorf("%s (step %d) holds %q %d times, want %d:\n%s", what, r.Step, mark, got, want, excerpt(r.Text))
	}
}

// checkResume resumes the session the world's last run left, twice.
// First with lessons uninstalled, so that no hook adds anything: the first
// request holds the protocol if the agent replays session-start text, the
// probe's lesson if it replays the text added at calls; engine's platform
// must say the same. Then with lessons installed again (install is the
// install command's arguments), on the probe then a final text: the model
// must see the protocol and the session-start lesson once, and the probe's
// lesson as the replay has it (Gemini CLI 0.61.0 replays a tool response
// twice), or once when the agent does not replay it.
func checkResume(t *testing.T, w *world, platform string, install []string, resume func(*model)) {
	t.Helper()
	w.lessons(append([]string{"uninstall"}, install[1:]...)...)
	m := newModel(t, shape[platform], say("Nothing to do."))
	resume(m)
	first := m.conversation()[0]
	measured := engine.Resumed{Start: strings.Contains(first.Text, protocolMark), Calls: strings.Contains(first.Text, callMark)}
	t.Logf("%s replays on resume: %+v", platform, measured)
	if got := engine.Platforms[platform].ResumeKeeps(); got != measured {
		t.Errorf("engine says %s keeps %+v of the hooks' text on resume; measured: %+v", platform, got, measured)
	}

	w.lessons(install...)
	m = newModel(t, shape[platform], shellOf[platform](probe), say("Done again."))
	resume(m)
	m.done()
	first = m.conversation()[0]
	once(t, "the first resumed request", first, protocolMark, 1)
	once(t, "the first resumed request", first, startMark, 1)
	want := max(strings.Count(first.Text, callMark), 1)
	once(t, "the last resumed request", m.last(), callMark, want)
	once(t, "the last resumed request", m.last(), protocolMark, 1)
}

// shape is each platform's API, shellOf its shell call.
var (
	shape   = map[string]apiShape{"claude": anthropic, "codex": responses, "gemini": geminiAPI, "opencode": chatCompletions}
	shellOf = map[string]func(string) step{"claude": claudeBash, "codex": codexShell, "gemini": geminiShell, "opencode": opencodeBash}
)
