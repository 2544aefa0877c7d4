package secret

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Finding is a secret in a text: the rule that found it and its span in
// bytes. The span covers the secret only, not the flag or key naming it;
// Named says such a name comes before it ("--password X", "KEY=X"), so
// a sentence that drops the secret still reads.
type Finding struct {
	Rule       string
	Start, End int
	Named      bool
}

// minSecret is the shortest value of gitleaks' rules worth hiding: a
// shorter one hides nothing and replacing it everywhere would mangle
// the text.
const minSecret = 6

// minArg is the shortest secret our own rules report: shorter values
// are placeholders ("-px", "--token $T").
const minArg = 4

// Find returns the secrets in s, ordered by position; overlapping spans
// are merged under the first rule. It reads s as written and decoded
// (JSON and YAML escapes undone, up to three levels), so that
// "{\"password\":\"x\"}" in a YAML string is a password too; a secret
// found in a decoded reading is reported where its escaped form is.
func Find(s string) []Finding {
	var out []Finding
	for _, v := range views(s) {
		for _, f := range findIn(v.text) {
			f.Start, f.End = v.span(f.Start, f.End)
			out = append(out, f)
		}
	}
	return merge(out)
}

// Redact returns s with every secret Find finds replaced by marker.
func Redact(s, marker string) string {
	return replace(s, Find(s), func(Finding) string { return marker })
}

// findIn runs every rule on text.
func findIn(text string) []Finding {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	own, gitleaks := rulesFor(strings.ToLower(text))
	var out []Finding
	for i, ok := range own {
		if ok {
			out = ownRules[i].findOwn(text, out)
		}
	}
	for i, ok := range gitleaks {
		if ok {
			out = gitleaksRules[i].findGitleaks(text, out)
		}
	}
	return out
}

// findOwn appends the findings of one of our rules.
func (r *rule) findOwn(s string, out []Finding) []Finding {
	x := re(r.pattern)
	if x == nil {
		return append(out, Finding{Rule: r.id, Start: 0, End: len(s)})
	}
	for _, m := range x.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[3], m[1]
		if len(m) > 4 && m[4] >= 0 {
			start, end = m[4], m[5]
		}
		v := s[start:end]
		if end-start < minArg || placeholder(v) || r.skip != nil && r.skip(v) {
			continue
		}
		out = append(out, Finding{Rule: r.id, Start: start, End: end, Named: start > m[0]})
	}
	return out
}

// findGitleaks appends the findings of one of gitleaks' rules, as
// gitleaks' detector would make them: the secret group, the entropy
// limit, then the global and the rule's allowlists.
func (r *rule) findGitleaks(s string, out []Finding) []Finding {
	x := re(r.pattern)
	if x == nil {
		return append(out, Finding{Rule: r.id, Start: 0, End: len(s)})
	}
	for _, m := range x.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[0], m[1]
		for end > start && s[end-1] == '\n' {
			end--
		}
		for start < end && s[start] == '\n' {
			start++
		}
		match := s[start:end]
		switch g := r.group; {
		case g > 0 && 2*g+1 < len(m) && m[2*g] >= 0:
			start, end = m[2*g], m[2*g+1]
		case g == 0:
			for k := 1; 2*k+1 < len(m); k++ {
				if m[2*k] >= 0 && m[2*k+1] > m[2*k] {
					start, end = m[2*k], m[2*k+1]
					break
				}
			}
		}
		secret := s[start:end]
		if len(secret) < minSecret || r.entropy != 0 && entropy(secret) <= r.entropy {
			continue
		}
		line := lineOf(s, start)
		if allowed(gitleaksAllow, secret, match, line) || allowed(r.allow, secret, match, line) {
			continue
		}
		out = append(out, Finding{Rule: r.id, Start: start, End: end, Named: start > m[0] && hasLetter(s[m[0]:start])})
	}
	return out
}

func allowed(as []allowlist, secret, match, line string) bool {
	for i := range as {
		if as[i].allows(secret, match, line) {
			return true
		}
	}
	return false
}

// lineOf is the line of s that holds byte i.
func lineOf(s string, i int) string {
	from := strings.LastIndexByte(s[:i], '\n') + 1
	to := strings.IndexByte(s[i:], '\n')
	if to < 0 {
		return s[from:]
	}
	return s[from : i+to]
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
}

// entropy is the Shannon entropy of s in bits per character, as
// gitleaks computes it.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++ // bytes, not runes: gitleaks' secrets are ASCII
	}
	var e float64
	inv := 1 / float64(len(s))
	for _, c := range counts {
		if c > 0 {
			f := float64(c) * inv
			e -= f * math.Log2(f)
		}
	}
	return e
}

// merge sorts findings and joins those that overlap.
func merge(fs []Finding) []Finding {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	var out []Finding
	for _, f := range fs {
		if n := len(out); n > 0 && f.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, f.End)
			continue
		}
		out = append(out, f)
	}
	return out
}

// replace replaces the spans fs of s, sorted and disjoint, with what by
// gives for each.
func replace(s string, fs []Finding, by func(Finding) string) string {
	if len(fs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, f := range fs {
		b.WriteString(s[last:f.Start])
		b.WriteString(by(f))
		last = f.End
	}
	b.WriteString(s[last:])
	return b.String()
}
