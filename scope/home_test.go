package scope

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// With $HOME unset, as an agent that clears its hooks' environment
// leaves it, the directories must still be absolute: relative ones put
// manifests, claims and the event log in the user's repository.
func TestDefaultDirsWithoutHome(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows finds the home in USERPROFILE")
	}
	if passwdHome("/etc/passwd", os.Getuid()) == "" {
		t.Skip("no passwd entry for this user")
	}
	t.Setenv("HOME", "")
	for _, home := range []string{"", "relative/home"} {
		d := DefaultDirs(func(k string) string { return map[string]string{"HOME": home}[k] })
		for _, dir := range []string{d.Home, d.Cache, d.State} {
			if !filepath.IsAbs(dir) {
				t.Errorf("with HOME=%q, DefaultDirs gave %q, want an absolute directory", home, dir)
			}
		}
	}
}

func TestPasswdHome(t *testing.T) {
	path := filepath.Join(t.TempDir(), "passwd")
	os.WriteFile(path, []byte("root:x:0:0:root:/root:/bin/sh\n"+
		"broken line\n"+
		"rel:x:7:7::relative:/bin/sh\n"+
		"dev:x:1000:1000:Dev,,,:/home/dev:/bin/bash\n"), 0o644)
	for uid, want := range map[int]string{0: "/root", 1000: "/home/dev", 7: "", 42: ""} {
		if got := passwdHome(path, uid); got != want {
			t.Errorf("passwdHome(%d) = %q, want %q", uid, got, want)
		}
	}
	if got := passwdHome(filepath.Join(t.TempDir(), "none"), 0); got != "" {
		t.Errorf("passwdHome of a missing file = %q", got)
	}
}
