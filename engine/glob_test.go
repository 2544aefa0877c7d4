package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
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
		for _, alt := range must(lessons.ExpandBraces(g)) {
			for _, p := range paths {
				if walkGlob(alt, p) && !strings.HasSuffix(p, literalSuffix(alt)) {
					t.Errorf("glob %q matches %q, but its literal suffix %q would reject it", alt, p, literalSuffix(alt))
				}
			}
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A glob of many "**" once backtracked exponentially: 20 s on a 40-level
// path, over a minute at 80.
func TestGlobIsLinear(t *testing.T) {
	glob := strings.Repeat("**/a/", 7) + "**/b"
	name := "/" + strings.Repeat("a/", 80) + "c"
	start := time.Now()
	if matchGlob(glob, name) {
		t.Errorf("%s matches %s", glob, name)
	}
	if !matchGlob(glob, "/"+strings.Repeat("a/", 80)+"b") {
		t.Errorf("%s does not match a path ending in b", glob)
	}
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("matching took %v", d)
	}
}

// bruteSegments is the obvious recursive matcher: exponential in the
// worst case, but right by construction.
func bruteSegments(pat, name string) bool {
	if pat == "" {
		return name == ""
	}
	p, prest, _ := strings.Cut(pat, "/")
	if p == "**" {
		for {
			if bruteSegments(prest, name) {
				return true
			}
			if name == "" {
				return false
			}
			_, name, _ = strings.Cut(name, "/")
		}
	}
	if name == "" {
		return false
	}
	n, nrest, _ := strings.Cut(name, "/")
	return matchSegment(p, n) && bruteSegments(prest, nrest)
}

// TestGlobAgreesWithBruteForce proves the linear matcher on generated
// globs and paths.
func TestGlobAgreesWithBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(from []string, n int) string {
		var parts []string
		for range n {
			parts = append(parts, from[r.IntN(len(from))])
		}
		return strings.Join(parts, "/")
	}
	patSegs := []string{"**", "a", "b", "*", "a*", "?", "[ab]"}
	nameSegs := []string{"a", "b", "ab", "c"}
	for range 20000 {
		pat := pick(patSegs, 1+r.IntN(6))
		name := pick(nameSegs, r.IntN(7))
		if got, want := matchSegments(pat, name), bruteSegments(pat, name); got != want {
			t.Fatalf("matchSegments(%q, %q) = %v, brute force says %v", pat, name, got, want)
		}
	}
}
