package scope

import (
	"os"
	"path/filepath"
	"slices"
)

// stackRule adds tags when a project's root holds one of files.
type stackRule struct {
	files []string
	tags  []string
}

// stackRules map files at a project's root to the tags of its stack.
var stackRules = []stackRule{
	{[]string{"go.mod"}, []string{"lang:go"}},
	{[]string{"package.json"}, []string{"lang:javascript"}},
	{[]string{"tsconfig.json"}, []string{"lang:typescript"}},
	{[]string{"package-lock.json", "npm-shrinkwrap.json"}, []string{"tool:npm"}},
	{[]string{"pnpm-lock.yaml", "pnpm-workspace.yaml"}, []string{"tool:pnpm"}},
	{[]string{"yarn.lock", ".yarnrc.yml"}, []string{"tool:yarn"}},
	{[]string{"bun.lockb", "bun.lock"}, []string{"tool:bun"}},
	{[]string{"deno.json", "deno.jsonc"}, []string{"lang:typescript", "tool:deno"}},
	{[]string{"pyproject.toml", "requirements.txt", "setup.py", "setup.cfg", "Pipfile"}, []string{"lang:python"}},
	{[]string{"poetry.lock"}, []string{"tool:poetry"}},
	{[]string{"uv.lock"}, []string{"tool:uv"}},
	{[]string{"Pipfile"}, []string{"tool:pipenv"}},
	{[]string{"pytest.ini", "conftest.py"}, []string{"tool:pytest"}},
	{[]string{"tox.ini"}, []string{"tool:tox"}},
	{[]string{".pre-commit-config.yaml"}, []string{"tool:pre-commit"}},
	{[]string{"manage.py"}, []string{"tool:django"}},
	{[]string{"alembic.ini"}, []string{"tool:alembic"}},
	{[]string{"Cargo.toml"}, []string{"lang:rust", "tool:cargo"}},
	{[]string{"Gemfile"}, []string{"lang:ruby", "tool:bundler"}},
	{[]string{"pom.xml"}, []string{"lang:java", "tool:maven"}},
	{[]string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"}, []string{"lang:java", "tool:gradle"}},
	{[]string{"composer.json"}, []string{"lang:php", "tool:composer"}},
	{[]string{"mix.exs"}, []string{"lang:elixir"}},
	{[]string{"Package.swift"}, []string{"lang:swift"}},
	{[]string{"CMakeLists.txt"}, []string{"lang:cpp", "tool:cmake"}},
	{[]string{"Makefile", "GNUmakefile"}, []string{"tool:make"}},
	{[]string{"Dockerfile", "docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"}, []string{"tool:docker"}},
	{[]string{".github/workflows"}, []string{"tool:github-actions"}},
	{[]string{".gitlab-ci.yml"}, []string{"tool:gitlab-ci"}},
	{[]string{"terraform.tf", "main.tf"}, []string{"tool:terraform"}},
}

// DetectStack returns the sorted tags of the languages and tools a project
// uses, from the files at its root (for example go.mod gives "lang:go").
// It reads the root once, plus one stat for .github/workflows.
func DetectStack(root string) []string {
	if root == "" {
		return nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = true
	}
	if present[".github"] {
		if fi, err := os.Stat(filepath.Join(root, ".github", "workflows")); err == nil && fi.IsDir() {
			present[".github/workflows"] = true
		}
	}
	var tags []string
	for _, r := range stackRules {
		for _, f := range r.files {
			if present[f] {
				tags = append(tags, r.tags...)
				break
			}
		}
	}
	slices.Sort(tags)
	return slices.Compact(tags)
}
