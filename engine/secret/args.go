package secret

import "strings"

// value is what follows a flag or a key: a quoted string or a word.
const value = `(?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+)`

// ownRules are ours: what gitleaks does not look for because it scans
// files, not command lines. Each pattern's first group is a prefix that
// stays (the flag, header or key name), so a redacted text still says
// what was there; the secret is the second group if there is one, else
// the rest of the match.
var ownRules = []rule{
	{id: "private-key-block", keywords: []string{"private key"}, pattern: `()-----BEGIN[A-Z ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY( BLOCK)?-----|$)`},
	{id: "aws-access-key-id", keywords: []string{"akia", "asia", "abia", "acca"}, pattern: `()\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`},
	{id: "aws-secret-access-key", keywords: []string{"secret"}, pattern: `(?i)(aws_?secret_?access_?key["']?\s*[=:]\s*["']?)[A-Za-z0-9/+=]{40}`},
	{id: "github-token", keywords: []string{"gh", "github_pat_"}, pattern: `()\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`},
	{id: "anthropic-key", keywords: []string{"sk-ant-"}, pattern: `()\bsk-ant-[A-Za-z0-9_-]{20,}`},
	{id: "openai-key", keywords: []string{"sk-"}, pattern: `()\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`},
	// gitleaks wants a Stripe key to end at a quote, space or line end;
	// curl's -u sk_live_…: (Stripe's own examples) ends it with a colon.
	{id: "stripe-key", keywords: []string{"k_live_", "k_test_", "k_prod_"}, pattern: `()\b[rs]k_(?:live|test|prod)_[A-Za-z0-9]{10,99}`},
	{id: "slack-token", keywords: []string{"xox"}, pattern: `()\bxox[abposre]-[A-Za-z0-9-]{10,}`},
	{id: "slack-webhook", keywords: []string{"hooks.slack.com"}, pattern: `()https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+`},
	{id: "google-api-key", keywords: []string{"aiza"}, pattern: `()\bAIza[0-9A-Za-z_-]{35}\b`},
	{id: "google-oauth-token", keywords: []string{"ya29."}, pattern: `()\bya29\.[0-9A-Za-z_-]{20,}`},
	{id: "jwt", keywords: []string{"eyj"}, pattern: `()\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`},
	// gitleaks' Hugging Face rule wants 34 letters; real tokens hold
	// digits too.
	{id: "huggingface-token", keywords: []string{"hf_"}, pattern: `()\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`},
	{id: "token-prefix", keywords: []string{"npm_", "pypi-", "glpat-", "dop_v1_", "shpat_", "sg."}, pattern: `()\b(?:npm_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{40,}|glpat-[A-Za-z0-9_-]{20,}|dop_v1_[a-f0-9]{64}|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})`},
	// Connection strings: Azure's AccountKey=, SharedAccessKey=, and
	// Password= of ADO.NET and ODBC strings.
	{id: "connection-string-key", keywords: []string{"accountkey", "sharedaccesskey", "sharedaccesssignature", "password=", "pwd="}, pattern: `(?i)(\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|Password|Pwd)=)[^;'"\s]+`},
	// Headers: Authorization with any scheme, and the API key headers.
	{id: "authorization-header", keywords: []string{"authorization"}, pattern: `(?i)(\bauthorization["']?\s*[:=]\s*["']?(?:basic|bearer|token|digest|apikey|key|negotiate|ntlm)\s+)[A-Za-z0-9._~+/=:-]{6,}`},
	// Without a scheme the value must hold a digit, which tells it from
	// a scheme followed by a value already redacted.
	{id: "authorization-header", keywords: []string{"authorization"}, pattern: `(?i)(\bauthorization["']?\s*[:=]\s*["']?)([A-Za-z._~+/=:-]*[0-9][A-Za-z0-9._~+/=:-]*)`},
	{id: "api-key-header", keywords: []string{"x-api-key", "x-auth-token", "x-access-token", "private-token", "api-key", "x-goog-api-key", "cookie", "proxy-authorization"}, pattern: `(?i)(\b(?:x-api-key|x-auth-token|x-access-token|private-token|api-key|x-goog-api-key|cookie|proxy-authorization)["']?\s*:\s*["']?)[^\s'"]{6,}`},
	{id: "bearer-token", keywords: []string{"bearer"}, pattern: `(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{12,}`},
	// Client arguments.
	{id: "mysql-password-argument", keywords: []string{"mysql", "mariadb"}, pattern: `(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlpump|mysqlsh|mariadb(?:-dump|-admin)?)\b[^\n|;&]*?\s-p)` + value},
	{id: "sshpass-password-argument", keywords: []string{"sshpass"}, pattern: `(\bsshpass\b[^\n|;&]*?\s-p\s*)` + value},
	{id: "redis-password-argument", keywords: []string{"redis-cli", "valkey-cli", "keydb-cli"}, pattern: `(\b(?:redis|valkey|keydb)-cli\b[^\n|;&]*?\s(?:-a|--pass|--askpass)\s+)` + value},
	// docker login -p, and any client given -u user -p password.
	{id: "login-password-argument", keywords: []string{"login", "-u"}, pattern: `(\b(?:login\b|-u\s*\S+|--user(?:name)?[=\s]\S+)[^\n|;&]*?\s(?:-p\s*|--pass(?:word)?(?:=|\s+)))` + value, skip: portOrFlag},
	// A secret echoed into a client's --password-stdin, or given as its
	// here-string, is on the command line after all.
	{id: "password-stdin-argument", keywords: []string{"--password-stdin", "--stdin"}, pattern: `(\b(?:echo|printf)\s+(?:-[neE]+\s+)?(?:'%s[^']*'\s+|"%s[^"]*"\s+)?)(` + value + `)\s*\|[^\n|]*--(?:password-)?stdin`},
	{id: "password-stdin-argument", keywords: []string{"--password-stdin", "--stdin"}, pattern: `(--(?:password-)?stdin\b[^\n|;&]*?<<<\s*)` + value},
	// sudo -S reads the password from its input: echoed into it, or a
	// here-string (its options may be joined, -kS, or take a word, -u root).
	{id: "sudo-stdin-password", keywords: []string{"sudo"}, pattern: `(\b(?:echo|printf)\s+(?:-[neE]+\s+)?(?:'%s[^']*'\s+|"%s[^"]*"\s+)?)(` + value + `)\s*\|\s*sudo` + sudoS},
	{id: "sudo-stdin-password", keywords: []string{"sudo"}, pattern: `(\bsudo` + sudoS + `\b[^\n|;&]*?<<<\s*)` + value},
	{id: "password-argument", keywords: []string{"pass", "pwd", "token", "secret", "key"}, pattern: `(?i)(\s--?(?:password|passwd|pass|pwd|token|secret|api[-_]?key|client[-_]secret|access[-_]token|auth[-_]token|private[-_]token|bot[-_]token|refresh[-_]token|db[-_]password|root[-_]password|admin[-_]password)(?:=|\s+))` + value},
	{id: "user-password-argument", keywords: []string{"-u", "--user", "--proxy-user"}, pattern: `(\s(?:-u|--user|--proxy-user)\s*['"]?[\w.@+-]+:)[^\s'"@]+`},
	// URLs: credentials in the userinfo (a password may hold a '/'; a
	// user may be empty, as in redis://:pw@host) or the query string.
	{id: "url-password", keywords: []string{"://"}, pattern: `(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)([^\s@]+)@`, skip: port},
	{id: "url-token-user", keywords: []string{"://"}, pattern: `(\b[a-zA-Z][a-zA-Z0-9+.-]*://)([A-Za-z0-9_-]{20,})@`},
	{id: "url-query-token", keywords: []string{"?", "&", ";"}, pattern: `(?i)([?&;](?:access[_-]?token|token|private[_-]?token|api[_-]?key|apikey|key|secret|client[_-]?secret|password|passwd|pwd|pass|auth|auth[_-]?token|signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token|refresh[_-]?token|id[_-]?token|session[_-]?id|sessionid|code)=)[^&\s#'"]+`},
	// Assignments: NAME_SECRET=value and password: value.
	{id: "secret-assignment", keywords: []string{"secret", "token", "passw", "_pwd", "key", "credential", "auth"}, pattern: `\b([A-Z][A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|_PWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*\s*[=:]\s*["']?)[^\s"'$][^\s"']{3,}`},
	{id: "password-assignment", keywords: []string{"passw", "secret", "key", "token"}, pattern: `(?i)\b((?:password|passwd|secret|api_?key|apikey|access_?token|auth_?token|client_?secret)["']?\s*[=:]\s*["']?)[^\s"'$][^\s"',}]{3,}`},
}

// sudoS is sudo's options up to and including -S (--stdin): options
// may be joined (-kS) or take a word (-u root).
const sudoS = `(?:\s+-[A-Za-z]+(?:\s+[^-\s|;&]\S*)?)*?\s+-[A-Za-z]*S`

// portOrFlag reports whether what follows -p is a port (psql -p 5432)
// or another flag (git stash -u … -p --include-untracked).
func portOrFlag(v string) bool {
	v = strings.Trim(v, `'"`)
	return strings.Trim(v, "0123456789") == "" || strings.HasPrefix(v, "-")
}

// port reports whether what url-password found is a port and a path
// (http://host:8080/a/@b), not a password.
func port(v string) bool {
	digits := strings.TrimLeft(v, "0123456789")
	return len(digits) < len(v) && (digits == "" || digits[0] == '/')
}

// placeholder reports whether a value our rules found stands for a
// secret rather than being one: a shell expansion ($VAR, $(cmd)), a
// template (<password>, {{ secrets.X }}, %PASSWORD%), a flag's spec
// (docker's --secret id=x,src=y), a marker left by an earlier
// redaction, or a well-known default (postgres:postgres@ in CI).
func placeholder(v string) bool {
	v = strings.Trim(v, `'"`)
	if v == "" || strings.ContainsAny(v[:1], "$<{%*[") {
		return true
	}
	switch strings.ToLower(v) {
	case "password", "passwd", "pass", "secret", "postgres", "mysql", "root", "admin", "test", "example",
		"changeme", "user", "username", "token", "redacted":
		return true
	}
	i := strings.IndexByte(v, '=')
	return i > 0 && strings.Trim(v[:i], "abcdefghijklmnopqrstuvwxyz") == ""
}
