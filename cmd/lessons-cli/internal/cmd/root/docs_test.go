package root

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/gendocs"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// TestDocsCurrent fails when docs/cli no longer matches the command tree.
func TestDocsCurrent(t *testing.T) {
	const committed = "../../../../../docs/cli"
	ios, _, _, _ := iostreams.Test()
	fresh := t.TempDir()
	if err := gendocs.Write(NewCmdRoot(&cmdutil.Factory{IOStreams: ios}), fresh, ""); err != nil {
		t.Fatal(err)
	}
	want := readDir(t, fresh)
	have := readDir(t, committed)
	for name, data := range want {
		if old, ok := have[name]; !ok {
			t.Errorf("docs/cli/%s is missing", name)
		} else if old != data {
			t.Errorf("docs/cli/%s is stale", name)
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/cli/%s documents no command", name)
		}
	}
	if t.Failed() {
		t.Log("regenerate with: go run ./cmd/lessons-cli gen-docs --markdown docs/cli")
	}
}

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}
