package realagents

import (
	"path/filepath"
	"strings"
	"testing"
)

// codex runs Codex CLI's exec against the fake model; args go after
// exec (resume and its arguments, for one).
func (w *world) codex(m *model, args ...string) string {
	w.t.Helper()
	return w.codexTrusting(m, false, args...)
}

// codexTrusting runs codex exec, with the project trusted when trust is
// set: Codex reads a project's .codex/hooks.json only then.
func (w *world) codexTrusting(m *model, trust bool, args ...string) string {
	w.t.Helper()
	return w.codexWith(m, trust, "", args...)
}

// codexWith runs codex exec with extra lines at the end of its
// config.toml (a [features] table), every hook trusted.
func (w *world) codexWith(m *model, trust bool, extra string, args ...string) string {
	w.t.Helper()
	return w.codexExec(m, trust, extra, append([]string{"--dangerously-bypass-hook-trust"}, args...)...)
}

// codexBin is the pinned Codex CLI.
func codexBin(t *testing.T) string {
	return filepath.Join(agentDir(t, "@openai/codex"), "node_modules", ".bin", "codex")
}

// codexExec runs codex exec with args after exec's own, a hook running
// only when Codex trusts it (unless args bypass the trust).
func (w *world) codexExec(m *model, trust bool, extra string, args ...string) string {
	w.t.Helper()
	bin := codexBin(w.t)
	home := filepath.Join(w.home, ".codex")
	w.write(filepath.Join(home, "config.toml"), `model = "gpt-5.5"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "`+m.URL+`/v1"
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"
`+map[bool]string{true: "\n[projects.\"" + w.project + "\"]\ntrust_level = \"trusted\"\n"}[trust]+extra)
	args = append([]string{"exec", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check"}, args...)
	return w.run([]string{"CODEX_HOME=" + home, "FAKE_OPENAI_KEY=sk-e2e"}, bin, args...)
}

func codexShell(command string) step {
	return call("exec_command", map[string]any{"cmd": command})
}

// TestCodex runs codex exec with lessons installed for the user: the core
// script, the call's lesson in the same turn, then a resume.
func TestCodex(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "codex")
	m := newModel(t, responses, append(core(codexShell), say("All done."))...)
	w.codex(m, prompt)
	m.done()
	checkCore(t, w, m)

	t.Run("resume", func(t *testing.T) {
		checkResume(t, w, "codex", []string{"install", "--platform", "codex"}, func(m *model) { w.codex(m, "resume", "--last", prompt) })
	})
}

// TestCodexProject runs codex exec with lessons installed in the
// project's .codex/hooks.json, which Codex reads only in a trusted
// project: untrusted, the model sees nothing of lessons, and doctor says
// why.
func TestCodexProject(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "codex", "--project")
	m := newModel(t, responses, say("Nothing to do."))
	w.codex(m, prompt)
	once(t, "the first request in an untrusted project", m.conversation()[0], protocolMark, 0)
	if out := w.doctor(); !strings.Contains(out, "Codex reads "+filepath.Join(w.project, ".codex", "hooks.json")+" only in a trusted project") {
		t.Errorf("doctor in an untrusted project says:\n%s", out)
	}

	m = newModel(t, responses, append(core(codexShell), codexShell(push), say("All done."))...)
	w.codexTrusting(m, true, prompt)
	m.done()
	checkCore(t, w, m)
	checkAsk(t, m, 4, "This call needs a human's approval")
}

// codeCell is a step of Codex's code mode: an exec cell of JavaScript
// that runs one shell command through tools.exec_command.
func codeCell(command string) step {
	return step{Tool: "exec", Freeform: "const r = await tools.exec_command({cmd: " + mustJSON(command) + "});\ntext(r.output);\n"}
}

// TestCodexCodeMode runs codex exec in code mode (features.code_mode),
// where the model's one tool is exec and every shell command runs from a
// JavaScript cell: the core script's commands, each from a cell, must
// meet lessons as they do called directly.
func TestCodexCodeMode(t *testing.T) {
	w := newWorld(t)
	w.lessons("install", "--platform", "codex")
	m := newModel(t, responses, append(core(codeCell), say("All done."))...)
	w.codexWith(m, false, "\n[features]\ncode_mode = true\n", prompt)
	m.done()
	if after := m.after(1).Text; !strings.Contains(after, "Script completed") {
		t.Fatalf("ls ran from no code-mode cell; the request after it:\n%s", excerpt(after))
	}
	checkCore(t, w, m)
}
