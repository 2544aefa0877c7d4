package redact

import (
	"regexp"
	"strings"
)

// Marker replaces a secret.
const Marker = "[REDACTED]"

// argRule is one of our own rules. The regexp's first group is a prefix
// that stays (the flag, header or key name), so the text still says what
// was there; the secret is the second group if there is one, else the
// rest of the match.
type argRule struct {
	id string
	// keywords are lower-case strings one of which every match holds:
	// the rule runs only on text that has one.
	keywords []string
	re       *regexp.Regexp
}

// value is what follows a flag or a key: a quoted string or a word.
const value = `(?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+)`

var argRules = []argRule{
	{"private-key-block", []string{"private key"}, regexp.MustCompile(`()-----BEGIN[A-Z ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY( BLOCK)?-----|$)`)},
	{"aws-access-key-id", []string{"akia", "asia", "abia", "acca"}, regexp.MustCompile(`()\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
	{"aws-secret-access-key", []string{"secret"}, regexp.MustCompile(`(?i)(aws_?secret_?access_?key["']?\s*[=:]\s*["']?)[A-Za-z0-9/+=]{40}`)},
	{"github-token", []string{"gh", "github_pat_"}, regexp.MustCompile(`()\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`)},
	{"anthropic-key", []string{"sk-ant-"}, regexp.MustCompile(`()\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{"openai-key", []string{"sk-"}, regexp.MustCompile(`()\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`)},
	// gitleaks wants a Stripe key to end at a quote, space or line end;
	// curl's -u sk_live_…: (Stripe's own examples) ends it with a colon.
	{"stripe-key", []string{"k_live_", "k_test_", "k_prod_"}, regexp.MustCompile(`()\b[rs]k_(?:live|test|prod)_[A-Za-z0-9]{10,99}`)},
	{"slack-token", []string{"xox"}, regexp.MustCompile(`()\bxox[abposre]-[A-Za-z0-9-]{10,}`)},
	{"slack-webhook", []string{"hooks.slack.com"}, regexp.MustCompile(`()https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+`)},
	{"google-api-key", []string{"aiza"}, regexp.MustCompile(`()\bAIza[0-9A-Za-z_-]{35}\b`)},
	{"google-oauth-token", []string{"ya29."}, regexp.MustCompile(`()\bya29\.[0-9A-Za-z_-]{20,}`)},
	{"jwt", []string{"eyj"}, regexp.MustCompile(`()\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	// Headers: Authorization with any scheme, and the API key headers.
	{"authorization-header", []string{"authorization"}, regexp.MustCompile(`(?i)(\bauthorization["']?\s*[:=]\s*["']?(?:basic|bearer|token|digest|apikey|key|negotiate|ntlm)\s+)[A-Za-z0-9._~+/=:-]{6,}`)},
	// Without a scheme the value must hold a digit, which tells it from
	// a scheme followed by a value already redacted.
	{"authorization-header", []string{"authorization"}, regexp.MustCompile(`(?i)(\bauthorization["']?\s*[:=]\s*["']?)([A-Za-z._~+/=:-]*[0-9][A-Za-z0-9._~+/=:-]*)`)},
	{"api-key-header", []string{"x-api-key", "x-auth-token", "x-access-token", "private-token", "api-key", "x-goog-api-key", "cookie", "proxy-authorization"}, regexp.MustCompile(`(?i)(\b(?:x-api-key|x-auth-token|x-access-token|private-token|api-key|x-goog-api-key|cookie|proxy-authorization)["']?\s*:\s*["']?)[^\s'"]{6,}`)},
	{"bearer-token", []string{"bearer"}, regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{12,}`)},
	// Command arguments.
	{"mysql-password-argument", []string{"mysql", "mariadb"}, regexp.MustCompile(`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlpump|mysqlsh|mariadb(?:-dump|-admin)?)\b[^\n|;&]*?\s-p)` + value)},
	{"sshpass-argument", []string{"sshpass"}, regexp.MustCompile(`(\bsshpass\b[^\n|;&]*?\s-p\s*)` + value)},
	{"password-argument", []string{"pass", "pwd", "token", "secret", "key"}, regexp.MustCompile(`(?i)(\s--?(?:password|passwd|pass|pwd|token|secret|api[-_]?key|client[-_]secret|access[-_]token|auth[-_]token|private[-_]token|bot[-_]token|refresh[-_]token|db[-_]password|root[-_]password|admin[-_]password)(?:=|\s+))` + value)},
	{"user-password-argument", []string{"-u", "--user", "--proxy-user"}, regexp.MustCompile(`(\s(?:-u|--user|--proxy-user)\s*['"]?[\w.@+-]+:)[^\s'"@]+`)},
	// URLs: credentials in the userinfo or the query string.
	{"url-password", []string{"://"}, regexp.MustCompile(`(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:)([^\s@/]+)@`)},
	{"url-token-user", []string{"://"}, regexp.MustCompile(`(\b[a-zA-Z][a-zA-Z0-9+.-]*://)([A-Za-z0-9_-]{20,})@`)},
	{"url-query-token", []string{"?", "&", ";"}, regexp.MustCompile(`(?i)([?&;](?:access[_-]?token|token|private[_-]?token|api[_-]?key|apikey|key|secret|client[_-]?secret|password|passwd|pwd|pass|auth|auth[_-]?token|signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token|refresh[_-]?token|id[_-]?token|session[_-]?id|sessionid|code)=)[^&\s#'"]+`)},
	// Assignments: NAME_SECRET=value and password: value.
	{"secret-assignment", []string{"secret", "token", "passw", "_pwd", "key", "credential", "auth"}, regexp.MustCompile(`\b([A-Z][A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|_PWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*\s*[=:]\s*["']?)[^\s"'$][^\s"']{3,}`)},
	{"password-assignment", []string{"passw", "secret", "key", "token"}, regexp.MustCompile(`(?i)\b((?:password|passwd|secret|api_?key|apikey|access_?token|auth_?token|client_?secret)["']?\s*[=:]\s*["']?)[^\s"'$][^\s"',}]{3,}`)},
}

// placeholders are values our rules match that hide nothing: the
// well-known defaults of examples and CI services (postgres:postgres@),
// in lower case.
var placeholders = map[string]bool{
	"password": true, "passwd": true, "pass": true, "secret": true, "postgres": true, "mysql": true,
	"root": true, "admin": true, "test": true, "example": true, "changeme": true, "user": true,
	"username": true, "token": true, "redacted": true,
}

// placeholder reports whether a value our rules found stands for a
// secret rather than being one: a shell expansion ($VAR, $(cmd)), a
// template (<password>, {{ secrets.X }}, %PASSWORD%), a flag's spec
// (docker's --secret id=x,src=y), or a well-known default.
func placeholder(v string) bool {
	v = strings.Trim(v, `'"`)
	if v == "" || strings.ContainsAny(v[:1], "$<{%*") || placeholders[strings.ToLower(v)] {
		return true
	}
	i := strings.IndexByte(v, '=')
	return i > 0 && strings.Trim(v[:i], "abcdefghijklmnopqrstuvwxyz") == ""
}
