package agents

import (
	"os"
	"path/filepath"
	"testing"
)

// Uninstalling where nothing is installed writes nothing: it once left a
// 0-byte hooks.json that Codex then warned about at every start.
func TestUninstallWithNothingInstalled(t *testing.T) {
	for name, a := range Agents {
		dir := t.TempDir()
		path := filepath.Join(dir, ".agent", "settings.json")
		cs, err := a.PlanUninstall(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range cs {
			if c.Changed() {
				t.Errorf("%s: uninstall with nothing installed would change %s", name, c.Path)
			}
			if _, err := c.Apply(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: uninstall created %s (%v)", name, path, err)
		}
	}
}

// A project install that created .codex/hooks.json leaves no .codex/
// behind when it is uninstalled.
func TestUninstallRemovesTheDirectoryItCreated(t *testing.T) {
	a := Agents["codex"]
	dir := filepath.Join(t.TempDir(), ".codex")
	path := filepath.Join(dir, "hooks.json")
	in, err := a.PlanInstall(path, "/usr/local/bin/lessons")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.Apply(); err != nil {
		t.Fatal(err)
	}
	out, err := a.PlanUninstall(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range out {
		if _, err := c.Apply(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after uninstall %s is still there (%v)", dir, err)
	}
}
