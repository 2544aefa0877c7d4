// Command lessons-cli is the full lessons CLI: every command, including
// the hook. The small `lessons` binary serves the hook itself and execs
// this one for everything else.
package main

import (
	"os"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmd/root"
)

func main() {
	os.Exit(root.Main())
}
