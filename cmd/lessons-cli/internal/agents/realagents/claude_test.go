package realagents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pinnedModel is the model the suite names to Claude Code: one that
// reads hook text as <system-reminder> blocks in the user's turn.
const pinnedModel = "claude-sonnet-4-5"

// claude runs Claude Code non-interactively on prompt against the fake
// model, naming pinnedModel; extra adds flags, such as -c to resume.
func (w *world) claude(m *model, prompt string, extra ...string) string {
	w.t.Helper()
	return w.claudeAs(m, pinnedModel, prompt, extra...)
}

// claudeBin is the pinned Claude Code's program.
func claudeBin(t *testing.T) string {
	dir := agentDir(t, "@anthropic-ai/claude-code")
	// npm may skip the wrapper's postinstall step; the platform package's
	// native binary runs either way.
	bin := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	if _, err := os.Stat(bin); err != nil {
		bin = filepath.Join(dir, "node_modules", ".bin", "claude")
	}
	return bin
}

// claudeAs is claude with the model named by --model, or Claude Code's
// default when modelName is "".
func (w *world) claudeAs(m *model, modelName, prompt string, extra ...string) string {
	w.t.Helper()
	bin := claudeBin(w.t)
	args := []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"}
	if modelName != "" {
		args = append(args, "--model", modelName)
	}
	args = append(args, extra...)
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

// TestClaudeDefaultModel runs the core script with Claude Code's default
// model, to which Claude Code gives each hook's text as a message of its
// own rather than a <system-reminder> in the user's turn: the protocol
// and the lessons must reach the model that way too.
func TestClaudeDefaultModel(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "claude")
	m := newModel(t, anthropic, append(core(claudeBash), say("All done."))...)
	w.claudeAs(m, "", prompt)
	m.done()
	checkCore(t, w, m)
	// The form: after the probe, the protocol and the probe's lesson are
	// each a system message of their own, outside the user's turn.
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(m.after(0).Body, &req); err != nil {
		t.Fatal(err)
	}
	var system []string
	for _, msg := range req.Messages {
		var b strings.Builder
		var v any
		_ = json.Unmarshal(msg.Content, &v)
		flatten(&b, v)
		if msg.Role == "system" {
			system = append(system, b.String())
		} else if strings.Contains(b.String(), protocolMark) || strings.Contains(b.String(), callMark) {
			t.Errorf("a %s message holds hook text: %s", msg.Role, excerpt(b.String()))
		}
	}
	t.Logf("Claude Code's default model: %s, %d system messages after the probe", req.Model, len(system))
	if len(system) != 2 || !strings.Contains(system[0], "SessionStart hook additional context: "+protocolMark) || strings.Contains(system[0], callMark) ||
		!strings.Contains(system[1], "PreToolUse:Bash hook additional context: ") || !strings.Contains(system[1], callMark) || strings.Contains(system[1], protocolMark) {
		t.Errorf("system messages after the probe, want the protocol's then the probe lesson's:\n%s", excerpt(strings.Join(system, "\n")))
	}
}

// TestClaudeSkillShell runs a slash command whose !`cmd` line the
// forbidden lesson refuses, with lessons installed by a lessons install
// that found this Claude Code on PATH: the line does not run, and the
// model reads the block's reason where its output would be.
func TestClaudeSkillShell(t *testing.T) {
	w := newWorld(t)
	w.prependPath(filepath.Dir(claudeBin(t)))
	w.lessons("install", "--platform", "claude")
	if !strings.Contains(w.read(filepath.Join(w.home, ".claude", "settings.json")), `"PreSkillShellCommand"`) {
		t.Fatal("install did not register PreSkillShellCommand for the pinned Claude Code")
	}
	w.write(filepath.Join(w.project, ".claude", "commands", "ship.md"),
		"---\ndescription: Ship the e2e project\n---\nThe forbidden step printed: !`"+forbidden+"`\n\nSay what it printed.\n")
	m := newModel(t, anthropic, say("The step was refused."))
	w.claude(m, "/ship")
	m.done()
	first := m.conversation()[0]
	once(t, "the request the slash command made", first, blockMark, 1)
	if !strings.Contains(first.Text, "[not run: blocked by hook: "+blockMark) {
		t.Errorf("the model does not read that the line did not run:\n%s", excerpt(first.Text))
	}
	if w.exists("ran.txt") {
		t.Error("the slash command's forbidden line ran: ran.txt exists")
	}
}
