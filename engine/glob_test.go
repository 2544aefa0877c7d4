package engine

import (
	"strings"
	"testing"
)

// TestLiteralSuffixNeverLosesAMatch proves the shortcut: whenever the
// full walk matches, the path ends with the glob's literal suffix.
func TestLiteralSuffixNeverLosesAMatch(t *testing.T) {
	globs := []string{"*.py", "**/*.py", "a/**", "**", "*", "x?.go", "[ab]c", "**/test_*.py", "/a/*/c",
		"src/**/*.{ts,tsx}", "Makefile", "*.tar.gz", "a**b", "**/b", "*/b/*", "c]", `\*.md`}
	segs := []string{"a", "b", "c", "x1.go", "test_a.py", "ac", "bc", "z.tsx", "Makefile", "q.tar.gz", "aXb", "*.md", "c]"}
	var paths []string
	for _, a := range segs {
		paths = append(paths, "/"+a)
		for _, b := range segs {
			paths = append(paths, "/"+a+"/"+b, "/r/"+a+"/"+b)
		}
	}
	for _, g := range globs {
		for _, alt := range expandBraces(g) {
			for _, p := range paths {
				if walkGlob(alt, p) && !strings.HasSuffix(p, literalSuffix(alt)) {
					t.Errorf("glob %q matches %q, but its literal suffix %q would reject it", alt, p, literalSuffix(alt))
				}
			}
		}
	}
}
