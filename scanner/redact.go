package scanner

import "regexp"

// Redaction replaces secrets with a marker before anything a scan finds
// is stored or shown. Patterns err on the side of hiding too much.

// Redacted replaces a secret.
const Redacted = "[REDACTED]"

var secretPatterns = []struct {
	re   *regexp.Regexp
	keep string // the replacement, with $1 for a kept prefix
}{
	{regexp.MustCompile(`-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY-----|$)`), Redacted},
	{regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`), Redacted},
	{regexp.MustCompile(`(?i)(aws_?secret_?access_?key["']?\s*[=:]\s*["']?)[A-Za-z0-9/+=]{40}`), "${1}" + Redacted},
	{regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), Redacted},
	{regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), Redacted},
	{regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), Redacted},
	{regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), Redacted},
	{regexp.MustCompile(`https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+`), Redacted},
	{regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`), Redacted},
	{regexp.MustCompile(`\bya29\.[0-9A-Za-z_-]{20,}`), Redacted},
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), Redacted},
	{regexp.MustCompile(`(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{12,}`), "${1}" + Redacted},
	{regexp.MustCompile(`\b([a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:)[^\s@/]+@`), "${1}" + Redacted + "@"},
	{regexp.MustCompile(`\b([A-Z][A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*\s*[=:]\s*["']?)[^\s"'$][^\s"']{3,}`), "${1}" + Redacted},
	{regexp.MustCompile(`(?i)\b((?:password|passwd|secret|api_?key|apikey|access_?token|auth_?token|client_?secret)["']?\s*[=:]\s*["']?)[^\s"'$][^\s"',}]{3,}`), "${1}" + Redacted},
}

// Redact returns s with every secret it recognizes replaced by Redacted:
// AWS, GitHub, Anthropic, OpenAI, Slack and Google keys and tokens, bearer
// tokens, private keys, JWTs, passwords in URLs and KEY=value secrets.
func Redact(s string) string {
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.keep)
	}
	return s
}
