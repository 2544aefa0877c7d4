package realagents

import (
	"path/filepath"
	"strings"
	"testing"
)

// gemini runs Gemini CLI non-interactively on prompt against the fake
// model; extra adds flags, such as --resume.
func (w *world) gemini(m *model, prompt string, extra ...string) string {
	w.t.Helper()
	bin := filepath.Join(agentDir(w.t, "@google/gemini-cli"), "node_modules", ".bin", "gemini")
	args := append([]string{"-p", prompt, "--approval-mode", "yolo", "--model", "gemini-2.5-flash"}, extra...)
	return w.run([]string{
		"GOOGLE_GEMINI_BASE_URL=" + m.URL,
		"GEMINI_API_KEY=e2e-key",
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_TELEMETRY_ENABLED=false",
	}, bin, args...)
}

// geminiSettings writes the user's settings: an API key's auth.
func (w *world) geminiSettings() {
	w.write(filepath.Join(w.home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "general": {"disableAutoUpdate": true},
  "privacy": {"usageStatisticsEnabled": false}
}
`)
}

func geminiShell(command string) step {
	return call("run_shell_command", map[string]any{"command": command, "description": "Run a command"})
}

// TestGemini runs Gemini CLI with lessons installed for the user: the
// core script, then a subagent (invoke_agent) that runs the probe the
// parent already had the lesson for.
func TestGemini(t *testing.T) {
	w := newWorld(t)
	w.geminiSettings()
	w.lessons("install", "--platform", "gemini")
	m := newModel(t, geminiAPI, append(core(geminiShell),
		call("invoke_agent", map[string]any{"agent_name": "generalist", "prompt": "Run the probe."}),
		geminiShell(probe), // the subagent's
		call("complete_task", map[string]any{"result": map[string]any{"response": "The probe ran."}}),
		say("All done."))...)
	w.gemini(m, prompt)
	m.done()
	checkCore(t, w, m)
	// Gemini CLI escapes < and > in hook text: the model reads the
	// entity, and a note that says what it stands for.
	after := m.after(0).Text
	if !strings.Contains(after, "`lessons-e2e-probe &lt; /dev/null`") || !strings.Contains(after, "&lt; stands for the less-than sign") {
		t.Errorf("the probe's lesson does not read right after Gemini's escaping:\n%s", excerpt(after))
	}
	once(t, "the subagent's first request", m.after(4), protocolMark, 1)
	once(t, "the subagent's first request", m.after(4), startMark, 1)
	once(t, "the subagent's request after its probe", m.after(5), callMark, 1)
	once(t, "the parent's last request", m.last(), callMark, 1)
}

// TestGeminiProject runs Gemini CLI with lessons installed in the
// project's .gemini/settings.json, then resumes. With hooksConfig.enabled
// false in the user's settings the model sees nothing of lessons, and
// doctor says why. (The resume is measured on a session without a
// subagent: the subagent's prompt, which carries the protocol, is replayed
// with the invoke_agent call.)
func TestGeminiProject(t *testing.T) {
	w := newWorld(t)
	settings := filepath.Join(w.home, ".gemini", "settings.json")
	w.write(settings, `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "hooksConfig": {"enabled": false}}`)
	w.lessons("install", "--platform", "gemini", "--project")
	m := newModel(t, geminiAPI, say("Nothing to do."))
	w.gemini(m, prompt)
	once(t, "the first request with hooksConfig.enabled false", m.conversation()[0], protocolMark, 0)
	if out := w.doctor(); !strings.Contains(out, settings+": Gemini CLI runs no hook: hooksConfig.enabled is false") {
		t.Errorf("doctor with the hooks off says:\n%s", out)
	}

	w.geminiSettings()
	m = newModel(t, geminiAPI, append(core(geminiShell), geminiShell(push), say("All done."))...)
	w.gemini(m, prompt)
	m.done()
	checkCore(t, w, m)
	checkAsk(t, m, 4, "This call needs a human's approval")

	t.Run("resume", func(t *testing.T) {
		checkResume(t, w, "gemini", []string{"install", "--platform", "gemini", "--project"}, func(m *model) { w.gemini(m, prompt, "--resume", "latest") })
	})
}
