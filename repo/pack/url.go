package pack

import (
	"net/url"
	"regexp"
	"strings"
)

// scpLike matches the short SSH form "user@host:path".
var scpLike = regexp.MustCompile(`^(?:([^@/]+)@)?([^:/]+):([^/].*)$`)

// remote is a pack URL taken apart.
type remote struct {
	Scheme string // https, http, ssh, git or file
	User   string
	Host   string // without port
	Port   string // "" when the URL names none
	Path   string // without leading slash or ".git"
}

// parseRemote splits a git URL, including the scp-like SSH form. An
// unparsable URL yields a remote with only Path set.
func parseRemote(raw string) remote {
	if m := scpLike.FindStringSubmatch(raw); m != nil && !strings.Contains(raw, "://") {
		return remote{Scheme: "ssh", User: m[1], Host: m[2], Path: cleanRepoPath(m[3])}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return remote{Scheme: "file", Path: raw}
	}
	return remote{Scheme: u.Scheme, User: u.User.Username(), Host: u.Hostname(), Port: u.Port(), Path: cleanRepoPath(u.Path)}
}

func cleanRepoPath(p string) string {
	return strings.TrimSuffix(strings.Trim(p, "/"), ".git")
}

// Redact returns raw without the credentials it may carry, so that it can
// be printed, logged or written to a lock file or a config: the user
// information of an HTTP URL (a lone user name there is usually a token)
// and any password, and the value of every query parameter that names a
// credential (private_token, access_token, token, …), shown as "REDACTED".
// An SSH user name without a password is kept.
func Redact(raw string) string {
	out, query, hasQuery := strings.Cut(redactUser(raw), "?")
	if hasQuery {
		out += "?" + redactQuery(query)
	}
	return out
}

func redactUser(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	authority, path, hasPath := strings.Cut(rest, "/")
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return raw
	}
	user, keep := authority[:at], ""
	if strings.Contains(scheme, "ssh") && !strings.Contains(user, ":") {
		keep = user + "@"
	}
	out := scheme + "://" + keep + authority[at+1:]
	if hasPath {
		out += "/" + path
	}
	return out
}

// redactQuery replaces the values of query's credential parameters.
func redactQuery(query string) string {
	parts := strings.Split(query, "&")
	for i, part := range parts {
		if name, _, _ := strings.Cut(part, "="); isCredentialParam(name) {
			parts[i] = name + "=REDACTED"
		}
	}
	return strings.Join(parts, "&")
}

// credentialWords, found in a query parameter's name, mark it as carrying
// a secret: GitLab's private_token, OAuth's access_token, signed URLs'
// signatures, and the like.
var credentialWords = []string{"token", "secret", "password", "passwd", "pwd", "key", "sig", "auth", "credential", "session"}

func isCredentialParam(name string) bool {
	if n, err := url.QueryUnescape(name); err == nil {
		name = n
	}
	name = strings.ToLower(name)
	for _, w := range credentialWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// CredentialIn says which part of raw holds a credential ("the user
// information", "the query parameter private_token"), or "" when none
// does. An SSH user name alone is not a credential.
func CredentialIn(raw string) string {
	if redactUser(raw) != raw {
		return "the user information before @"
	}
	_, query, _ := strings.Cut(raw, "?")
	for _, part := range strings.Split(query, "&") {
		if name, _, _ := strings.Cut(part, "="); part != "" && isCredentialParam(name) {
			return "the query parameter " + name
		}
	}
	return ""
}

// queryCredentials are the values of raw's credential parameters, as
// written and unescaped, to keep out of errors.
func queryCredentials(raw string) []string {
	_, query, _ := strings.Cut(raw, "?")
	var out []string
	for _, part := range strings.Split(query, "&") {
		name, value, ok := strings.Cut(part, "=")
		if !ok || value == "" || !isCredentialParam(name) {
			continue
		}
		out = append(out, value)
		if v, err := url.QueryUnescape(value); err == nil && v != value {
			out = append(out, v)
		}
	}
	return out
}
