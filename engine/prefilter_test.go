package engine

import (
	"reflect"
	"testing"
)

func TestExtractPrefilter(t *testing.T) {
	tests := []struct {
		src     string
		fold    bool
		clauses [][]string // nil: no prefilter
	}{
		{`git push`, false, [][]string{{"git push"}}},
		{`git\s+push\s+(-f|--force)`, false, [][]string{{"push"}, {"git"}, {"-f", "--force"}}},
		{`(?i)pytest`, true, [][]string{{"pytest"}}},
		{`rm -rf (?!/tmp)`, false, [][]string{{"rm -rf "}}},
		{`(?<=sudo )apt(?= install)`, false, [][]string{{"apt"}}},
		{`^npm (i|install)\b`, false, [][]string{{"npm i", "npm install"}}},
		{`.*`, false, nil},
		{`a*`, false, nil},
		{`(ab)+c`, false, [][]string{{"ab"}, {"c"}}},
		{`(a|.*)`, false, nil},
		{`[Pp]ush`, true, [][]string{{"push"}}}, // RE2 folds it
		{`(\w+)\1`, false, nil},                 // backreference: any text
		{`(\w+)=~;\1 rm`, false, [][]string{{"=~;"}, {" rm"}}},
		{`a[\1]b`, false, nil},    // RE2 would read octal
		{`\Q.*\E`, false, nil},    // RE2 quoting, not ECMAScript
		{`\x{41}`, false, nil},    // means x repeated in ECMAScript
		{`foo(?=bar`, false, nil}, // unbalanced
		{`docker\ build`, false, [][]string{{"docker build"}}},
		{`(?i:SED) -i`, true, [][]string{{"sed -i"}}},
	}
	for _, tt := range tests {
		pf, ok := extractPrefilter(tt.src)
		if tt.clauses == nil {
			if ok {
				t.Errorf("extractPrefilter(%q) = %+v, want none", tt.src, pf)
			}
			continue
		}
		if !ok || pf.fold != tt.fold || !reflect.DeepEqual(pf.clauses, tt.clauses) {
			t.Errorf("extractPrefilter(%q) = %+v, %v; want fold=%v %q", tt.src, pf, ok, tt.fold, tt.clauses)
		}
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"*.py", "/a/b/c.py", true},
		{"*.py", "/a/b/c.pyc", false},
		{"migrations/*.py", "/x/app/migrations/1.py", true},
		{"migrations/*.py", "/x/app/migrations/sub/1.py", false},
		{"migrations/**/*.py", "/x/app/migrations/sub/1.py", true},
		{"migrations/**/*.py", "/x/migrations/1.py", true},
		{"/etc/*", "/etc/hosts", true},
		{"/etc/*", "/x/etc/hosts", false},
		{"**/node_modules/**", "/p/node_modules/a/b.js", true},
		{"src/?.go", "src/a.go", true},
		{"src/?.go", "src/ab.go", false},
		{".env", "/p/.env", true},
		{".env*", "/p/.env.local", true},
		{"Dockerfile", "/p/Dockerfile.dev", false},
		{"a/**", "/x/a", true},
		{"/etc/**", "/home/etc/hosts", false},
		{".github/workflows/*.yml", "/r/.github/workflows/ci.yml", true},
		{"[ab].py", "/r/b.py", true},
		{"[ab].py", "/r/c.py", false},
		{"test_*", "/r/tests/test_api.py", true},
	}
	for _, tt := range tests {
		if got := matchGlob(tt.glob, tt.path); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
}
