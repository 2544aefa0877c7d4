package cmdutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// RunEditor lets the user edit a temporary copy of data named like path
// (so the editor picks the file type) in $VISUAL, else $EDITOR, else vi,
// and returns the result; path itself is not touched.
func RunEditor(ios *iostreams.IOStreams, getenv func(string) string, path string, data []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "lessons-edit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return nil, err
	}
	editor := getenv("VISUAL")
	if editor == "" {
		editor = getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	// The editor may carry arguments ("code --wait"): let the shell split it.
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "sh", tmp)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ios.In, ios.Out, ios.ErrOut
	if err := cmd.Run(); err != nil {
		return nil, WithHint(fmt.Errorf("editor %q: %w; %s is unchanged", editor, err, path), "set EDITOR to your editor's command")
	}
	return os.ReadFile(tmp)
}
