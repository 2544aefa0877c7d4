// Package redact hides the secrets of text captured from agent sessions
// before that text is stored, named or committed. The rules are package
// secret's, the hook's own: gitleaks' default rule set, generated into a
// table at build time, and ours for secrets passed as client arguments,
// headers, URLs and assignments.
package redact
