package cmdutil

import (
	"errors"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// A warning names a file of a pack or a store, named by whoever wrote
// it: its control characters print as text.
func TestPrintWarningsEscapes(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	PrintWarnings(ios, []error{errors.New("/p/.lessons/bad\x1b[31m\n.yaml:1:1: invalid YAML")})
	if got, want := errOut.String(), "warning: /p/.lessons/bad\\x1b[31m\\n.yaml:1:1: invalid YAML\n"; got != want {
		t.Errorf("PrintWarnings wrote %q, want %q", got, want)
	}
}
