package agents

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorChecksClaudePlugins: doctor finds the lessons plugin Claude
// Code has installed and enabled (installed_plugins.json and enabledPlugins,
// as claude plugin install writes them in 2.1.331), checks that its hook
// answers, and warns when settings.json runs lessons too.
func TestDoctorChecksClaudePlugins(t *testing.T) {
	s := newSandbox(t)
	getenv := func(k string) string {
		for _, kv := range s.env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	for _, kv := range s.env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	plugin := filepath.Join(s.home, ".claude", "plugins", "cache", "lessons", "lessons", "0.1.0")
	writePlugin := func(bin string) {
		for name, data := range PluginFiles(bin, "0.1.0") {
			s.write(filepath.Join(plugin, filepath.FromSlash(name)), data)
		}
	}
	installed, _ := json.Marshal(map[string]any{"version": 2, "plugins": map[string]any{
		"lessons@lessons": []any{map[string]any{"scope": "user", "installPath": plugin, "version": "0.1.0"}}}})
	s.write(filepath.Join(s.home, ".claude", "plugins", "installed_plugins.json"), installed)
	settings := filepath.Join(s.home, ".claude", "settings.json")
	enable := func(on bool) {
		data, _ := json.Marshal(map[string]any{"enabledPlugins": map[string]bool{"lessons@lessons": on}})
		s.write(settings, data)
	}
	claude := func() (Status, []Problem) {
		ps, sts := Report(getenv, s.project)
		for _, st := range sts {
			if st.Title == "Claude Code" {
				return st, ps
			}
		}
		t.Fatal("no status for Claude Code")
		return Status{}, nil
	}

	writePlugin(filepath.Join(s.bin, "lessons"))
	enable(false)
	if st, ps := claude(); len(st.Files) != 0 || len(ps) != 0 {
		t.Errorf("a disabled plugin: %q %+v", st.Line(), ps)
	}
	enable(true)
	if st, ps := claude(); st.Line() != "Claude Code: ok ("+plugin+")" || len(ps) != 0 {
		t.Errorf("an enabled plugin: %q %+v", st.Line(), ps)
	}

	writePlugin("/gone/lessons")
	if st, ps := claude(); st.Worst != "error" || len(ps) != 1 || !strings.Contains(ps[0].Message, "/gone/lessons, which is not an executable file") {
		t.Errorf("a plugin whose binary is gone: %q %+v", st.Line(), ps)
	}
	writePlugin(filepath.Join(s.bin, "lessons"))

	// Install refuses to add lessons to settings.json beside the plugin;
	// doctor warns about a settings.json that has them anyway.
	cmd := exec.Command(filepath.Join(s.bin, "lessons"), "install", "--platform", "claude")
	cmd.Dir, cmd.Env = s.project, s.env
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "from the lessons@lessons plugin") {
		t.Errorf("install beside the plugin: %v\n%s", err, out)
	}
	enable(false)
	s.lessons("install", "--platform", "claude")
	data, _ := os.ReadFile(settings)
	s.write(settings, bytes.Replace(data, []byte(`"lessons@lessons":false`), []byte(`"lessons@lessons":true`), 1))
	if st, ps := claude(); len(st.Files) != 2 || len(ps) != 1 || !strings.Contains(ps[0].Message, "every hook runs twice") {
		t.Errorf("a plugin and settings.json: %q %+v", st.Line(), ps)
	}
}
