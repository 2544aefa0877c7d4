package scope

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDetectStack(t *testing.T) {
	cases := []struct {
		files []string
		want  []string
	}{
		{[]string{"go.mod", "Makefile"}, []string{"lang:go", "tool:make"}},
		{[]string{"package.json", "pnpm-lock.yaml", "tsconfig.json"}, []string{"lang:javascript", "lang:typescript", "tool:pnpm"}},
		{[]string{"package.json", "yarn.lock"}, []string{"lang:javascript", "tool:yarn"}},
		{[]string{"pyproject.toml", "uv.lock", "Dockerfile"}, []string{"lang:python", "tool:docker", "tool:uv"}},
		{[]string{"requirements.txt", "setup.py"}, []string{"lang:python"}},
		{[]string{"pyproject.toml", "poetry.lock", "manage.py"}, []string{"lang:python", "tool:django", "tool:poetry"}},
		{[]string{"Cargo.toml"}, []string{"lang:rust", "tool:cargo"}},
		{[]string{"Gemfile"}, []string{"lang:ruby", "tool:bundler"}},
		{[]string{"pom.xml", "build.gradle"}, []string{"lang:java", "tool:gradle", "tool:maven"}},
		{[]string{".github/workflows/ci.yml"}, []string{"tool:github-actions"}},
		{[]string{".github/CODEOWNERS"}, nil},
		{nil, nil},
	}
	for _, c := range cases {
		root := t.TempDir()
		for _, f := range c.files {
			write(t, filepath.Join(root, f), "")
		}
		if got := DetectStack(root); !slices.Equal(got, c.want) {
			t.Errorf("DetectStack(%v) = %v, want %v", c.files, got, c.want)
		}
	}
	if got := DetectStack(""); got != nil {
		t.Errorf("DetectStack(\"\") = %v, want nil", got)
	}
	if got := DetectStack(filepath.Join(os.TempDir(), "does-not-exist-lessons")); got != nil {
		t.Errorf("DetectStack(missing) = %v, want nil", got)
	}
}
