package agents

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestPluginSource(t *testing.T) {
	bin := `/home/me/it's "here"/lessons`
	src := PluginSource(bin)
	if !IsOurPlugin(src) {
		t.Error("the plugin does not start with its marker")
	}
	if got := PluginBinary(src); got != bin {
		t.Errorf("PluginBinary = %q, want %q", got, bin)
	}
	if bytes.Contains(src, []byte(binPlaceholder)) {
		t.Error("the placeholder is still there")
	}
	if IsOurPlugin([]byte("export default async () => ({})\n")) {
		t.Error("someone else's plugin taken for ours")
	}
}

// writePlugin writes the plugin into a directory of its own, as an ES
// module for Node (opencode's Bun needs no package.json).
func writePlugin(t *testing.T, src []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"type": "module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, PluginFile)
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runHarness runs opencode/harness.mjs in mode on the plugin at path.
func runHarness(t *testing.T, mode, plugin string, env ...string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	harness, err := filepath.Abs(filepath.Join("opencode", "harness.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, harness, mode, plugin)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node harness.mjs %s: %v\n%s", mode, err, out)
	}
}

// TestOpencodePlugin drives the plugin as opencode does, against a fake
// lessons binary that answers by the payload.
func TestOpencodePlugin(t *testing.T) {
	runHarness(t, "fake", writePlugin(t, PluginSource("/nonexistent/lessons")), "HARNESS_PROJECT="+t.TempDir())
}
