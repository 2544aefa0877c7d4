//go:build unix

package scan

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// A file in the logs dir is named by whoever wrote there: its name goes
// to the terminal in a warning (here: a named pipe, skipped), so its
// control characters must print as text, not clear the screen or set
// the window title.
func TestScanWarningEscapesFileName(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	opts := newOpts(t, ios)
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "evil\x1b[2J\x1b]0;pwned\a\n.jsonl"), 0o644); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	opts.Paths = []string{dir}
	if err := scanRun(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	got := errOut.String()
	if strings.ContainsAny(got, "\x1b\a") || !strings.Contains(got, `evil\x1b[2J\x1b]0;pwned\x07\n.jsonl: not a regular file`) {
		t.Errorf("warning = %q, want the file name escaped", got)
	}
}
