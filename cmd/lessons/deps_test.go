package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
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

// TestNoRegexCompiledAtInit: no package of this module the hook links
// compiles a regular expression in a package-level variable. Package
// initialisation runs on every call, whatever the call needs; one such
// regex cost the hook 45 µs a call (GODEBUG=inittrace=1). Compile on
// first use instead (sync.OnceValue).
func TestNoRegexCompiledAtInit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .GoFiles}} {{$.Dir}}/{{.}}{{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || !strings.HasPrefix(fields[0], "github.com/lessons-dev/lessons") {
			continue
		}
		for _, path := range fields[1:] {
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, spec := range g.Specs {
						for _, v := range spec.(*ast.ValueSpec).Values {
							if call := compileCall(v); call != "" {
								t.Errorf("%s: %s in a package-level variable runs at every hook call's start", filepath.Base(path), call)
							}
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source file of this module checked")
	}
}

// compileCall finds a call of regexp's or regexp2's Compile functions in
// e outside function literals (which run when called, not at init).
func compileCall(e ast.Expr) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "regexp" || pkg.Name == "regexp2") && strings.Contains(sel.Sel.Name, "Compile") {
					found = pkg.Name + "." + sel.Sel.Name
				}
			}
		}
		return found == ""
	})
	return found
}
