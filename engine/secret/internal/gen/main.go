// Command gen writes secret/gitleaks_rules.go from gitleaks' default
// rules (go generate in package secret).
package main

import (
	"fmt"
	"os"

	"github.com/lessons-dev/lessons/engine/secret/internal/rulegen"
)

func main() {
	src, err := rulegen.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("gitleaks_rules.go", src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
