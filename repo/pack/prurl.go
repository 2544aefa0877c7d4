package pack

import (
	"net/url"
	"strings"
)

// PullRequestURL is the page that opens a pull (or merge) request from
// branch into base on the forge hosting remoteURL: GitHub, GitLab or
// Bitbucket, recognised by host name. It is "" for any other host.
func PullRequestURL(remoteURL, branch, base string) string {
	r := parseRemote(remoteURL)
	if r.Host == "" || r.Path == "" {
		return ""
	}
	web := "https://" + r.Host + "/" + r.Path
	host := strings.ToLower(r.Host)
	switch {
	case strings.Contains(host, "github"):
		return web + "/compare/" + pathEscape(base) + "..." + pathEscape(branch) + "?expand=1"
	case strings.Contains(host, "gitlab"):
		q := url.Values{"merge_request[source_branch]": {branch}, "merge_request[target_branch]": {base}}
		return web + "/-/merge_requests/new?" + q.Encode()
	case strings.Contains(host, "bitbucket"):
		q := url.Values{"source": {branch}, "dest": {base}}
		return web + "/pull-requests/new?" + q.Encode()
	}
	return ""
}

// pathEscape escapes a branch name for a URL path, keeping its slashes.
func pathEscape(branch string) string {
	parts := strings.Split(branch, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
