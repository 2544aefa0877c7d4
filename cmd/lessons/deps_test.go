package main

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are packages whose start-up cost the hook cannot pay (see
// docs/design.md): each one linked makes every tool call slower.
var forbidden = []string{
	"github.com/go-git/",
	"gopkg.in/yaml", "go.yaml.in/yaml", "sigs.k8s.io/yaml",
	"github.com/santhosh-tekuri/jsonschema",
	"github.com/oklog/ulid", "crypto/", "math/big",
	"github.com/spf13/cobra", "github.com/spf13/pflag",
	"database/sql", "github.com/ncruces/go-sqlite3", "modernc.org/sqlite",
	"github.com/lessons-dev/lessons/repo",
	"github.com/lessons-dev/lessons/scanner",
	"github.com/zricethezav/gitleaks",
	"github.com/lessons-dev/lessons/cmd/lessons-cli",
}

func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if strings.HasPrefix(dep, f) {
				t.Errorf("cmd/lessons links %s: keep it in lessons-cli", dep)
			}
		}
	}
}
