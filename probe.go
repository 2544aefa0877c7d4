package lessons

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
)

// Backtracking probes: how long one probe may take before the pattern is
// suspect, and how long the second, confirming try may take, so that a
// busy machine does not condemn a sound pattern.
const (
	probeTimeout   = 20 * time.Millisecond
	confirmTimeout = 10 * probeTimeout
)

// ProbeBacktracking runs src on a backtracking engine against inputs made
// from the pattern itself and returns an error when one takes too long:
// a pattern whose backtracking explodes on some input. The inputs are the
// pattern's own words as a prefix (so anchors like ^git are passed), a
// unit repeated to feed nested quantifiers, and a near-miss ending that
// makes the match fail late. The hook runs most patterns on a linear
// engine, but a pack's lesson may be exported to tools that do not.
func ProbeBacktracking(src string) error {
	re, err := regexp2.Compile(src, regexp2.ECMAScript)
	if err != nil {
		return err
	}
	for _, in := range probeInputs(src) {
		re.MatchTimeout = probeTimeout
		if _, err := re.MatchString(in); err == nil {
			continue
		}
		re.MatchTimeout = confirmTimeout
		if _, err := re.MatchString(in); err != nil {
			return fmt.Errorf("pattern backtracks catastrophically (no answer within %v on the %d-byte input %.40q…): avoid nested quantifiers such as (a+)+ or (\\s*\\S+)+", confirmTimeout, len(in), in)
		}
	}
	return nil
}

// probeInputs builds the probe's subjects from the words of src.
func probeInputs(src string) []string {
	words := patternWords(src)
	prefixes := []string{""}
	if len(words) > 0 {
		prefixes = append(prefixes, words[0], strings.Join(words, " "))
	}
	if len(words) > 1 {
		prefixes = append(prefixes, words[0]+" "+words[1])
	}
	units := []string{"a", "a ", " ", "-", "x=1 ", "/a"}
	for _, c := range patternLetters(src, 4) {
		units = append(units, c, c+" ")
	}
	ends := []string{"!", "\n"}
	var out []string
	for _, p := range prefixes {
		for _, u := range units {
			for _, n := range []int{24, 256} {
				body := p + strings.Repeat(u, n)
				for _, e := range ends {
					out = append(out, body+e)
				}
			}
		}
	}
	return out
}

// patternWords are the runs of two or more letters, digits, _ or - that
// src spells literally (escapes such as \s and \d are not words), at most
// eight.
func patternWords(src string) []string {
	var words []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end-start >= 2 && len(words) < 8 {
			words = append(words, src[start:end])
		}
		start = -1
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			flush(i)
			i++ // the escaped character is not a letter of a word
		case isAlnum(c) || c == '_' || c == '-':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(src))
	return words
}

// patternLetters are up to n distinct letters and digits that src spells
// literally: what a repeated group such as (x+x+)+ consumes.
func patternLetters(src string, n int) []string {
	var out []string
	for i := 0; i < len(src) && len(out) < n; i++ {
		c := src[i]
		if c == '\\' {
			i++
			continue
		}
		if isAlnum(c) && c != 'a' && !slices.Contains(out, string(c)) {
			out = append(out, string(c))
		}
	}
	return out
}
