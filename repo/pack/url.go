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
// be printed, logged or written to a lock file: the user information of an
// HTTP URL (a lone user name there is usually a token) and any password.
// An SSH user name without a password is kept.
func Redact(raw string) string {
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
