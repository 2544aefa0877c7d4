package secret

import (
	"regexp"
	"strings"
	"sync"
)

// rule is one detection rule. For gitleaks' rules the secret is the
// capture group numbered group (0: the first non-empty group, or the
// whole match), kept when its entropy is above entropy and no allowlist
// lets it pass. For our own rules (own set) the first group is a prefix
// that names the secret (a flag, a header, a key) and the secret is the
// second group if there is one, else the rest of the match.
type rule struct {
	id string
	// keywords are lower-case strings one of which every match holds:
	// the rule runs only on text that has one (none: always).
	keywords []string
	pattern  string
	entropy  float64
	group    int
	allow    []allowlist
	own      bool
	// skip, when set, rejects a value the pattern found that is no
	// secret (a port number, say).
	skip func(string) bool
}

// allowlist is a gitleaks allowlist: a finding is let pass when one of
// the patterns matches its target (the secret, the whole match, or its
// line) or the secret contains a stop word; with and, both must hold.
type allowlist struct {
	target    string
	and       bool
	patterns  []string
	stopWords []string
}

// compiled holds the regular expressions compiled so far, by pattern:
// a process compiles only the rules its texts needed.
var compiled sync.Map

// re compiles pattern on first use. A pattern that does not compile
// (the tests compile them all) is nil: its rule then reports the whole
// text, so nothing is stored unchecked.
func re(pattern string) *regexp.Regexp {
	if v, ok := compiled.Load(pattern); ok {
		return v.(*regexp.Regexp)
	}
	r, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	v, _ := compiled.LoadOrStore(pattern, r)
	return v.(*regexp.Regexp)
}

// applies reports whether the lower-cased text holds one of the rule's
// keywords.
func (r *rule) applies(lower string) bool {
	if len(r.keywords) == 0 {
		return true
	}
	for _, k := range r.keywords {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return false
}

// allows reports whether an allowlist lets the secret pass.
func (a *allowlist) allows(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	matched := false
	for _, p := range a.patterns {
		if r := re(p); r != nil && r.MatchString(target) {
			matched = true
			break
		}
	}
	stop := false
	lower := strings.ToLower(secret)
	for _, w := range a.stopWords {
		if strings.Contains(lower, w) {
			stop = true
			break
		}
	}
	if a.and {
		return (len(a.patterns) == 0 || matched) && (len(a.stopWords) == 0 || stop)
	}
	return matched || stop
}
