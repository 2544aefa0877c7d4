package realagents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// opencode runs opencode run on prompt against the fake model; extra adds
// flags, such as --continue.
func (w *world) opencode(m *model, prompt string, extra ...string) string {
	w.t.Helper()
	bin := filepath.Join(agentDir(w.t, "opencode-ai"), "node_modules", ".bin", "opencode")
	w.write(filepath.Join(w.home, ".config", "opencode", "opencode.json"), `{
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": "fake/fake-model",
  "permission": {"bash": "allow", "edit": "allow", "webfetch": "allow"},
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": {"baseURL": "`+m.URL+`/v1", "apiKey": "e2e-key"},
      "models": {"fake-model": {"name": "Fake model", "tool_call": true}}
    }
  }
}
`)
	w.seedOpencode(filepath.Join(w.home, ".config", "opencode"))
	args := append([]string{"run", "--model", "fake/fake-model"}, extra...)
	return w.run([]string{
		"OPENCODE_DISABLE_MODELS_FETCH=true",
		"OPENCODE_DISABLE_AUTOUPDATE=true",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=true",
		"OPENCODE_DISABLE_SHARE=true",
	}, bin, append(args, prompt)...)
}

// seedOpencode gives an opencode config directory the plugin package
// opencode installs there with npm at start (the plugin API its plugins
// import), from the cache: the install script put it there, so that a run
// needs no registry and no 60 MB download.
func (w *world) seedOpencode(dir string) {
	w.t.Helper()
	seed := filepath.Join(agentDir(w.t, "opencode-ai"), "config-seed")
	for _, name := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(seed, name))
		if err != nil {
			w.t.Fatalf("the opencode config seed: %v (run scripts/install-agents.sh)", err)
		}
		w.write(filepath.Join(dir, name), string(data))
	}
	if err := os.Symlink(filepath.Join(seed, "node_modules"), filepath.Join(dir, "node_modules")); err != nil && !os.IsExist(err) {
		w.t.Fatal(err)
	}
}

func opencodeBash(command string) step {
	return call("bash", map[string]any{"command": command, "description": "Run a command"})
}

// TestOpencode runs opencode with the lessons plugin installed for the
// user: the core script, then a subagent (the task tool) that runs the
// probe the parent already had the lesson for, then a resume
// (--continue). The title request must get no lesson text.
func TestOpencode(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "opencode")
	m := newModel(t, chatCompletions, append(core(opencodeBash),
		call("task", map[string]any{"description": "Run the probe", "prompt": "Run the probe.", "subagent_type": "general"}),
		opencodeBash(probe), // the subagent's
		say("The probe ran."),
		say("All done."))...)
	w.opencode(m, prompt)
	m.done()
	checkCore(t, w, m)
	once(t, "the subagent's first request", m.after(4), protocolMark, 1)
	once(t, "the subagent's request after its probe", m.after(5), callMark, 1)
	once(t, "the parent's last request", m.last(), callMark, 1)
	checkSideRequests(t, m)

	t.Run("resume", func(t *testing.T) {
		checkResume(t, w, "opencode", []string{"install", "--platform", "opencode"}, func(m *model) { w.opencode(m, prompt, "--continue") })
	})
}

// TestOpencodeProject runs opencode with the plugin installed in the
// project's .opencode/plugins.
func TestOpencodeProject(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "opencode", "--project")
	w.seedOpencode(filepath.Join(w.project, ".opencode"))
	m := newModel(t, chatCompletions, append(core(opencodeBash), opencodeBash(push), say("All done."))...)
	w.opencode(m, prompt)
	m.done()
	checkCore(t, w, m)
	checkAsk(t, m, 4, "This call needs a human's approval")
	checkSideRequests(t, m)
}

// checkSideRequests fails when a request that is not the conversation,
// such as opencode's title request, got lesson text.
func checkSideRequests(t *testing.T, m *model) {
	t.Helper()
	for _, r := range m.all() {
		if r.Step != -1 {
			continue
		}
		for _, mark := range []string{protocolMark, startMark, callMark, injected} {
			if strings.Contains(r.Text, mark) {
				t.Errorf("a side request to %s got lesson text (%q):\n%s", r.Path, mark, excerpt(r.Text))
			}
		}
	}
}
