package secret

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
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

// keywordIndex finds which rules a text calls for in one pass over it,
// as gitleaks' Aho-Corasick prefilter does: a rule runs only when the
// text holds one of its keywords.
type keywordIndex struct {
	words []string
	// byPair lists the keywords of two bytes or more by their first two.
	byPair map[[2]byte][]int
	// single are the keywords of one byte.
	single []int
	// own and gitleaks list, per keyword, the rules that hold it.
	own, gitleaks [][]int
}

// Building the index costs more than a hundred microseconds, which a
// process that checks a few short texts (the hook scrubs a command and
// an error line) never wins back: such texts are scanned for every
// keyword instead (scanKeywords), picking the same rules. A process
// keeps that up for its first directTexts texts of at most maxDirect
// bytes; past them it is checking many, and builds the index.
const (
	directTexts = 16
	maxDirect   = 1 << 10
)

// directDone counts the texts scanned without the index.
var directDone atomic.Int32

// rulesFor returns which of ownRules and gitleaksRules the lower-cased
// text calls for (see keywordIndex.rules), by the index or, for a few
// short texts, by scanning for every keyword.
func rulesFor(lower string) (own, gitleaks []bool) {
	if len(lower) <= maxDirect && directDone.Add(1) <= directTexts {
		return scanKeywords(lower)
	}
	return index().rules(lower)
}

// index is built when a process has checked more than a few short
// texts (see rulesFor), not when the package loads.
var index = sync.OnceValue(func() *keywordIndex {
	x := &keywordIndex{byPair: map[[2]byte][]int{}}
	ids := map[string]int{}
	add := func(rules []rule, to func(k, r int)) {
		for i, r := range rules {
			for _, w := range r.keywords {
				k, ok := ids[w]
				if !ok {
					k = len(x.words)
					ids[w] = k
					x.words = append(x.words, w)
					x.own, x.gitleaks = append(x.own, nil), append(x.gitleaks, nil)
					if len(w) == 1 {
						x.single = append(x.single, k)
					} else {
						p := [2]byte{w[0], w[1]}
						x.byPair[p] = append(x.byPair[p], k)
					}
				}
				to(k, i)
			}
		}
	}
	add(ownRules, func(k, r int) { x.own[k] = append(x.own[k], r) })
	add(gitleaksRules, func(k, r int) { x.gitleaks[k] = append(x.gitleaks[k], r) })
	return x
})

// rules returns which of ownRules and gitleaksRules the lower-cased text
// calls for: those with a keyword in it, and those with none.
func (x *keywordIndex) rules(lower string) (own, gitleaks []bool) {
	own, gitleaks = make([]bool, len(ownRules)), make([]bool, len(gitleaksRules))
	found := make([]bool, len(x.words))
	for i := 0; i+1 < len(lower); i++ {
		for _, k := range x.byPair[[2]byte{lower[i], lower[i+1]}] {
			if !found[k] && strings.HasPrefix(lower[i:], x.words[k]) {
				found[k] = true
			}
		}
	}
	for _, k := range x.single {
		found[k] = strings.Contains(lower, x.words[k])
	}
	for k, ok := range found {
		if ok {
			for _, r := range x.own[k] {
				own[r] = true
			}
			for _, r := range x.gitleaks[k] {
				gitleaks[r] = true
			}
		}
	}
	for i := range ownRules {
		own[i] = own[i] || len(ownRules[i].keywords) == 0
	}
	for i := range gitleaksRules {
		gitleaks[i] = gitleaks[i] || len(gitleaksRules[i].keywords) == 0
	}
	return own, gitleaks
}
