package secret

import "strings"

// Sentence returns s with its secrets taken out so that it reads as if
// they had never been there, for text that names things (a summary, a
// slug made from it): a secret that a flag or key names is dropped with
// what tied it to the name ("--password X" reads "--password",
// "DB_PASSWORD=X" reads "DB_PASSWORD"); any other is named by its kind
// ("the API token"). Markers an earlier redaction left ("[REDACTED]")
// are rewritten the same way, as "the secret" when nothing names them.
func Sentence(s string) string {
	fs := merge(append(Find(s), markers(s)...))
	if len(fs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, f := range fs {
		start, end := f.Start, f.End
		// A quoted secret goes with its quotes.
		if start > 0 && end < len(s) && (s[start-1] == '\'' || s[start-1] == '"') && s[end] == s[start-1] {
			start, end = start-1, end+1
		}
		before := s[last:start]
		if f.Named {
			before = strings.TrimRight(before, "=: ")
		} else {
			before += kind(f.Rule)
		}
		b.WriteString(before)
		last = end
	}
	b.WriteString(s[last:])
	return strings.Join(strings.Fields(b.String()), " ")
}

// markerPattern finds what an earlier redaction left, with or without
// its brackets (a glob's marker has none). Compiled on first use, as
// every pattern here.
const markerPattern = `(?i)\[redacted\]|\bredacted\b`

// namedPattern says that a flag or key names what follows it.
const namedPattern = `(?:[=:]|\s-{1,2}[A-Za-z][\w-]*\s+|\s-[A-Za-z])["']?$`

// markers are the redaction markers in s, as findings.
func markers(s string) []Finding {
	var out []Finding
	for _, m := range re(markerPattern).FindAllStringIndex(s, -1) {
		before := s[max(0, m[0]-64):m[0]] // a flag or key is short: no rescan of the whole text per marker
		out = append(out, Finding{Rule: "marker", Start: m[0], End: m[1], Named: re(namedPattern).MatchString(before)})
	}
	return out
}

// kind names what a rule finds, as a sentence would.
func kind(rule string) string {
	switch {
	case rule == "marker":
		return "the secret"
	case strings.Contains(rule, "password") || strings.Contains(rule, "passwd"):
		return "the password"
	case strings.Contains(rule, "private-key"):
		return "the private key"
	case strings.Contains(rule, "webhook"):
		return "the webhook URL"
	case strings.Contains(rule, "secret"):
		return "the secret"
	case strings.Contains(rule, "key"):
		return "the API key"
	}
	return "the API token"
}
