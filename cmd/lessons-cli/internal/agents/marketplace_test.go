package agents

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

var update = flag.Bool("update", false, "rewrite the repository's marketplace plugin")

// repoRoot is the repository's root, from this package's directory.
const repoRoot = "../../../.."

// TestMarketplacePluginCurrent keeps the plugin the repository's Claude
// Code marketplace lists equal to what MarketplaceFiles makes.
func TestMarketplacePluginCurrent(t *testing.T) {
	dir := filepath.Join(repoRoot, filepath.FromSlash(MarketplaceDir))
	want := MarketplaceFiles(lessons.Version)
	if *update {
		os.RemoveAll(dir)
		for name, data := range want {
			p := filepath.Join(dir, filepath.FromSlash(name))
			mode := os.FileMode(0o644)
			if strings.HasPrefix(name, "bin/") {
				mode = 0o755
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	have := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		name := filepath.ToSlash(rel)
		have[name] = true
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if w, ok := want[name]; !ok {
			t.Errorf("%s/%s is not part of the plugin", MarketplaceDir, name)
		} else if !bytes.Equal(data, w) {
			t.Errorf("%s/%s is stale", MarketplaceDir, name)
		}
		if fi, _ := d.Info(); strings.HasPrefix(name, "bin/") && fi.Mode()&0o111 == 0 {
			t.Errorf("%s/%s is not executable", MarketplaceDir, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range want {
		if !have[name] {
			t.Errorf("%s/%s is missing", MarketplaceDir, name)
		}
	}
	if t.Failed() {
		t.Log("regenerate with: go test ./cmd/lessons-cli/internal/agents -run TestMarketplacePluginCurrent -update")
	}

	var market struct {
		Name    string
		Plugins []struct{ Name, Source string }
	}
	data, err := os.ReadFile(filepath.Join(repoRoot, ".claude-plugin", "marketplace.json"))
	if err == nil {
		err = json.Unmarshal(data, &market)
	}
	if err != nil {
		t.Fatalf("marketplace.json: %v", err)
	}
	if len(market.Plugins) != 1 || market.Plugins[0].Name != "lessons" || market.Plugins[0].Source != "./"+MarketplaceDir {
		t.Errorf("marketplace.json lists %+v, want the plugin lessons at ./%s", market.Plugins, MarketplaceDir)
	}
}

// TestMarketplaceHookWithoutLessons runs the plugin's hook where lessons
// is not installed: it answers {} to every event and names the install
// once, at the first session start.
func TestMarketplaceHookWithoutLessons(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	const systemPath = "/usr/bin:/bin"
	for _, d := range filepath.SplitList(systemPath) {
		if _, err := os.Stat(filepath.Join(d, "lessons")); err == nil {
			t.Skipf("lessons is installed in %s", d)
		}
	}
	dir := t.TempDir()
	hook := filepath.Join(dir, "lessons-hook")
	if err := os.WriteFile(hook, marketplaceHook, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(event string) string {
		t.Helper()
		cmd := exec.Command(sh, hook, "hook", "--platform", "claude")
		cmd.Env = []string{"PATH=" + systemPath, "CLAUDE_PLUGIN_DATA=" + filepath.Join(dir, "data")}
		cmd.Stdin = strings.NewReader(`{"hook_event_name": "` + event + `", "session_id": "s"}`)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", event, err)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run("PreToolUse"); got != "{}" {
		t.Errorf("PreToolUse without lessons = %s, want {}", got)
	}
	first := run("SessionStart")
	var msg struct{ SystemMessage string }
	if err := json.Unmarshal([]byte(first), &msg); err != nil || !strings.Contains(msg.SystemMessage, "brew install") {
		t.Errorf("first SessionStart = %s, want a systemMessage saying how to install", first)
	}
	if got := run("SessionStart"); got != "{}" {
		t.Errorf("second SessionStart = %s, want {} (the hint comes once)", got)
	}
}

// TestMarketplaceHookRunsLessons: with lessons on PATH, the plugin's hook
// is `lessons` with its arguments and standard input.
func TestMarketplaceHookRunsLessons(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	hook := filepath.Join(dir, "lessons-hook")
	fake := "#!/bin/sh\nprintf '%s|' \"$@\"; cat\n"
	if err := os.WriteFile(hook, marketplaceHook, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lessons"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, hook, "hook", "--platform", "claude")
	cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse"}`)
	out, err := cmd.Output()
	if want := `hook|--platform|claude|{"hook_event_name":"PreToolUse"}`; err != nil || string(out) != want {
		t.Errorf("hook with lessons installed = %q, %v; want %q", out, err, want)
	}
}
