package redact

import (
	"cmp"
	"slices"
	"strings"
)

// Finding is a secret in a text: the rule that found it and its span in
// bytes. The span covers the secret only, not the flag or key naming it.
type Finding struct {
	Rule       string
	Start, End int
}

// Find returns the secrets in s, ordered by position; overlapping spans
// are merged under the first rule. The error is gitleaks' when its rules
// fail to load (then only our own rules ran): callers that store text
// should fail closed.
func Find(s string) ([]Finding, error) {
	secrets, err := gitleaksSecrets(s)
	return merge(append(ownFindings(s), locate(s, secrets)...)), err
}

// ownFindings are the findings of our own rules in s.
func ownFindings(s string) []Finding {
	var out []Finding
	lower := strings.ToLower(s)
	for _, r := range argRules {
		if !slices.ContainsFunc(r.keywords, func(k string) bool { return strings.Contains(lower, k) }) {
			continue
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[3], m[1]
			if len(m) > 4 && m[4] >= 0 {
				start, end = m[4], m[5]
			}
			if end-start >= minArg && !placeholder(s[start:end]) {
				out = append(out, Finding{Rule: r.id, Start: start, End: end})
			}
		}
	}
	return out
}

// String returns s with every secret Find finds replaced by Marker. If
// gitleaks' rules cannot load, it hides everything: text is never stored
// unchecked.
func String(s string) string { return Replace(s, Marker) }

// Replace is String with another marker, for text with a syntax of its
// own (a regular expression, a glob).
func Replace(s, marker string) string {
	fs, err := Find(s)
	if err != nil {
		return marker
	}
	return replace(s, fs, marker)
}

// replace replaces the spans fs of s, sorted and disjoint, with marker.
func replace(s string, fs []Finding, marker string) string {
	if len(fs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, f := range fs {
		b.WriteString(s[last:f.Start])
		b.WriteString(marker)
		last = f.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// minArg is the shortest secret our own rules report: shorter values
// are placeholders ("-px", "--token $T").
const minArg = 4

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
