// Package redact finds secrets in text captured from agent sessions and
// hides them before that text is stored, named or committed.
//
// Two rule sets run: gitleaks' maintained rules (provider tokens, keys,
// private keys, JWTs, with its keywords, entropy limits and allowlists;
// gitleaks.go), and rules of our own for what gitleaks does not look for
// because it scans files, not command lines: secrets passed as arguments
// (mysql -p<pw>, --password X, curl -u user:pw), Authorization and API key
// headers, tokens in URL query strings, userinfo in URLs, and
// NAME_SECRET=value assignments (args.go).
//
// The package is heavy (gitleaks brings its own dependencies) and is
// linked into lessons-cli only, never into the hook binary.
package redact
