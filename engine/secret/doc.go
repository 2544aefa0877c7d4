// Package secret is the one secret detector of lessons: every text that
// leaves the machine or the session (a candidate, a promoted lesson, its
// slug and commit message, a submission to a pack, the hook's capture
// record and nudges) goes through Find first.
//
// Two rule sets run, as one table: gitleaks' maintained rules (provider
// tokens, keys, JWTs, with their keywords, entropy limits and
// allowlists), generated at build time from gitleaks' default
// configuration into gitleaks_rules.go (go generate; a test fails when
// the table is stale), and rules of our own for what gitleaks does not
// look for because it scans files, not command lines: secrets passed as
// client arguments, Authorization headers, tokens in URLs, and
// NAME_SECRET=value assignments (args.go).
//
// The package links no gitleaks and compiles nothing when loaded: a
// rule's regular expression is compiled the first time a text holds one
// of its keywords, so the hook pays for the detector only on the calls
// that store or show text. Find also reads the text decoded (JSON and
// YAML escapes undone), so an escaped quote cannot hide a secret.
package secret

//go:generate go run ./internal/gen
