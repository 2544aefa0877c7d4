package lessons

import "testing"

func TestClassObject(t *testing.T) {
	for _, tt := range []struct {
		class, object string
		matches       []string
		misses        []string
	}{
		{"Cannot find module @a/core", "@a/core",
			[]string{"error: Cannot find module '@a/core' from '/w/x.ts'", "x.ts(1,2): error TS2307: Cannot find module '@a/core' or its corresponding type declarations.",
				"Module not found: Can't resolve '@a/core' in '/w/src'"},
			[]string{"Cannot find module '@a/core-utils'", "Cannot find module '@a/web'"}},
		{"command not found: go", "go",
			[]string{"/bin/bash: line 1: go: command not found", "zsh: command not found: go", "Command 'go' not found, but can be installed with:",
				"'go' is not recognized as an internal or external command,", "go : The term 'go' is not recognized as the name of a cmdlet"},
			[]string{"zsh: command not found: gofmt", "bash: cargo: command not found"}},
		{"No module named yaml", "yaml",
			[]string{"ModuleNotFoundError: No module named 'yaml'", "ImportError: No module named yaml"},
			[]string{"ModuleNotFoundError: No module named 'yaml_ext'"}},
		{"error: Missing DB_URL or DB_HOST", "DB_URL", nil, nil},
		{"Cannot find module ./util", "", nil, nil},
		{"KeyError", "", nil, nil},
		{"usage", "", nil, nil},
		{"error: DB_URL rejected by the server", "", nil, nil},
		{"STRIPE_KEY is not set", "STRIPE_KEY", nil, nil},
		{"Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: Package subpath <q> is not defined by <q>", "", nil, nil},
		{"ERR_MISSING_ARGS: the url argument is missing", "", nil, nil},
	} {
		object, p := ClassObject(tt.class)
		if object != tt.object {
			t.Errorf("ClassObject(%q) = %q, want %q", tt.class, object, tt.object)
			continue
		}
		if len(tt.matches)+len(tt.misses) == 0 {
			continue
		}
		re, err := CompilePattern(p)
		if err != nil {
			t.Fatalf("ClassObject(%q) pattern %q: %v", tt.class, p, err)
		}
		for _, s := range tt.matches {
			if ok, _ := re.MatchString(s); !ok {
				t.Errorf("pattern %q of %q misses %q", p, tt.class, s)
			}
		}
		for _, s := range tt.misses {
			if ok, _ := re.MatchString(s); ok {
				t.Errorf("pattern %q of %q matches %q", p, tt.class, s)
			}
		}
	}
}
