package scanner

import (
	"slices"
	"strings"
)

// Two mistakes a word-by-word diff cannot see, since the shell's quotes
// are gone once a command is split into words.

// quotedGlob returns the word of failing that holds * or ? unquoted and
// that fixed quotes (zsh: no matches found: https://x.test/a?b=1), or "".
func quotedGlob(failing, fixed string) string {
	if failing == fixed || !slices.Equal(shellWords(failing), shellWords(fixed)) {
		return ""
	}
	for _, w := range strings.Fields(failing) {
		if !strings.ContainsAny(w, "*?") || strings.ContainsAny(w, `'"\`) {
			continue
		}
		if strings.Contains(fixed, "'"+w+"'") || strings.Contains(fixed, `"`+w+`"`) {
			return w
		}
	}
	return ""
}

// optionEnds are the arguments that make the next one a pattern even
// when it starts with -.
var optionEnds = map[string]bool{"-e": true, "--regexp": true, "--": true}

// dashArg returns the argument of the failing simple command f that was
// quoted in the raw failing command, starts with - and that the fixed
// command g either dropped or put after -e or --: a search pattern read
// as an option (grep -E '--- FAIL'). It returns "" otherwise.
func dashArg(failing string, f, g []string) string {
	for i, w := range f {
		if i == 0 || !strings.HasPrefix(w, "-") || optionEnds[f[i-1]] ||
			!strings.Contains(failing, "'"+w+"'") && !strings.Contains(failing, `"`+w+`"`) {
			continue
		}
		j := slices.Index(g, w)
		if j < 0 || j > 0 && optionEnds[g[j-1]] {
			return w
		}
	}
	return ""
}
