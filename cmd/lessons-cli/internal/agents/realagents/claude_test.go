package realagents

import (
	"os"
	"path/filepath"
	"testing"
)

// claude runs Claude Code non-interactively on prompt against the fake
// model; extra adds flags, such as -c to resume.
func (w *world) claude(m *model, prompt string, extra ...string) string {
	w.t.Helper()
	dir := agentDir(w.t, "@anthropic-ai/claude-code")
	// npm may skip the wrapper's postinstall step; the platform package's
	// native binary runs either way.
	bin := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	if _, err := os.Stat(bin); err != nil {
		bin = filepath.Join(dir, "node_modules", ".bin", "claude")
	}
	args := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--permission-mode", "bypassPermissions", "--model", "claude-sonnet-4-5"}, extra...)
	return w.run([]string{
		"ANTHROPIC_BASE_URL=" + m.URL,
		"ANTHROPIC_API_KEY=sk-ant-e2e",
		"IS_SANDBOX=1", // bypass mode as root
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}, bin, args...)
}

func claudeBash(command string) step {
	return call("Bash", map[string]any{"command": command, "description": "Run a command"})
}

// prompt names nothing a lesson is about, so that prompt relevance
// brings nothing up and every lesson the model sees comes from a call.
const prompt = "Go ahead."

// TestClaude runs Claude Code with lessons installed for the user: the
// core script, then a subagent (the Agent tool) that runs the probe the
// parent already had the lesson for, then a resume (-c).
func TestClaude(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "claude")
	m := newModel(t, anthropic, append(core(claudeBash),
		call("Agent", map[string]any{"description": "Run the probe", "prompt": "Run the probe.", "subagent_type": "general-purpose",
			"run_in_background": false}), // 2.1.331 runs agents in the background by default
		claudeBash(probe), // the subagent's
		say("The probe ran."),
		say("All done."),
	)...)
	w.claude(m, prompt)
	m.done()
	checkCore(t, w, m)
	sub := m.after(4)
	once(t, "the subagent's first request", sub, protocolMark, 1)
	once(t, "the subagent's first request", sub, callMark, 0)
	once(t, "the subagent's request after its probe", m.after(5), callMark, 1)
	once(t, "the parent's last request", m.last(), callMark, 1)

	t.Run("resume", func(t *testing.T) {
		checkResume(t, w, "claude", []string{"install", "--platform", "claude"}, func(m *model) { w.claude(m, prompt, "-c") })
	})
}

// TestClaudeProject runs Claude Code with lessons installed in the
// project's settings.
func TestClaudeProject(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "claude", "--project")
	m := newModel(t, anthropic, append(core(claudeBash), claudeBash(push), say("All done."))...)
	w.claude(m, prompt)
	m.done()
	checkCore(t, w, m)
	checkAsk(t, m, 4, "A person must approve this call")
}
