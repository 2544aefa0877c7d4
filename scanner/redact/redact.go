package redact

import "github.com/lessons-dev/lessons/engine/secret"

// Marker replaces a secret.
const Marker = "[REDACTED]"

// Finding is a secret in a text (package secret).
type Finding = secret.Finding

// Find returns the secrets in s, ordered by position (secret.Find: its
// rules are the hook's too).
func Find(s string) []Finding { return secret.Find(s) }

// String returns s with every secret Find finds replaced by Marker.
func String(s string) string { return secret.Redact(s, Marker) }

// Replace is String with another marker, for text with a syntax of its
// own (a regular expression, a glob).
func Replace(s, marker string) string { return secret.Redact(s, marker) }

// Sentence returns s with its secrets and earlier markers taken out so
// that it reads as if they had never been there (secret.Sentence), for
// summaries and the slugs made from them.
func Sentence(s string) string { return secret.Sentence(s) }
