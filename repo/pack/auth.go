package pack

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"
)

// Credentials finds how to authenticate to a pack's remote. HTTPS uses a
// token from LESSONS_GIT_TOKEN (sent only to the hosts in
// LESSONS_GIT_TOKEN_HOSTS, by default github.com, gitlab.com and
// bitbucket.org, each matched exactly), GITHUB_TOKEN (sent to github.com
// only) or ~/.netrc as basic auth; SSH uses the key file in
// LESSONS_SSH_KEY, then ssh-agent, then ~/.ssh/id_ed25519, id_ecdsa or
// id_rsa. No credential goes over plain HTTP unless LESSONS_GIT_TOKEN_HOSTS
// itself names that exact host: a loopback address is not special, since
// on a shared machine any user may listen there. None follows a redirect
// to another host (go-git drops them when a redirect leaves the origin).
type Credentials struct {
	Getenv func(string) string // os.Getenv when nil
	Home   string              // the user's home directory, for .netrc and .ssh
}

// auth is how to reach one remote, and the secrets to keep out of errors.
type auth struct {
	method  transport.AuthMethod
	secrets []string
}

// For returns the authentication for rawURL; a nil method means none (or,
// for a URL that carries user:password, go-git's own use of it).
func (c Credentials) For(rawURL string) (auth, error) {
	r := parseRemote(rawURL)
	var a auth
	var err error
	switch r.Scheme {
	case "http", "https":
		a, err = c.httpAuth(rawURL, r)
	case "ssh", "git+ssh", "ssh+git":
		a, err = c.sshAuth(r)
	}
	a.secrets = append(a.secrets, queryCredentials(rawURL)...)
	return a, err
}

func (c Credentials) getenv(name string) string {
	if c.Getenv == nil {
		return os.Getenv(name)
	}
	return c.Getenv(name)
}

func (c Credentials) httpAuth(rawURL string, r remote) (auth, error) {
	if _, rest, ok := strings.Cut(rawURL, "://"); ok {
		authority, _, _ := strings.Cut(rest, "/")
		if user, _, ok := strings.Cut(authority, "@"); ok {
			if name, pass, ok := strings.Cut(user, ":"); ok {
				// go-git applies credentials written in the URL itself.
				return auth{secrets: []string{pass, name}}, nil
			}
		}
	}
	if r.Scheme == "http" && !c.listed(r, false) {
		return auth{}, nil
	}
	user, token := r.User, ""
	if c.listed(r, true) {
		token = c.getenv("LESSONS_GIT_TOKEN")
	}
	secrets := []string{user}
	if token == "" && strings.EqualFold(r.Host, "github.com") {
		token = c.getenv("GITHUB_TOKEN")
	}
	if token == "" {
		login, password, err := c.netrc(r.Host)
		if err != nil {
			return auth{}, err
		}
		if password == "" {
			return auth{}, nil
		}
		if user == "" {
			user = login
		}
		token = password
	}
	if user == "" {
		user = tokenUser(r.Host)
	}
	return auth{method: &githttp.BasicAuth{Username: user, Password: token}, secrets: append(secrets, token)}, nil
}

// defaultTokenHosts are where LESSONS_GIT_TOKEN goes when
// LESSONS_GIT_TOKEN_HOSTS does not say otherwise.
var defaultTokenHosts = []string{"github.com", "gitlab.com", "bitbucket.org"}

// listed reports whether the user lets credentials go to r's host: the
// hosts in LESSONS_GIT_TOKEN_HOSTS (comma-separated, each a host name or
// host:port, matched exactly) or, when withDefaults and the variable is
// unset, the public forges. A project's committed config can name any
// URL, so nothing else receives LESSONS_GIT_TOKEN.
func (c Credentials) listed(r remote, withDefaults bool) bool {
	var hosts []string
	switch list := c.getenv("LESSONS_GIT_TOKEN_HOSTS"); {
	case list != "":
		hosts = strings.Split(list, ",")
	case withDefaults:
		hosts = defaultTokenHosts
	}
	for _, h := range hosts {
		h = strings.TrimSpace(h)
		if strings.EqualFold(h, r.Host) || (r.Port != "" && strings.EqualFold(h, net.JoinHostPort(r.Host, r.Port))) {
			return true
		}
	}
	return false
}

// tokenUser is the user name a forge expects beside a token.
func tokenUser(host string) string {
	host = strings.ToLower(host)
	switch {
	case strings.Contains(host, "gitlab"):
		return "oauth2"
	case strings.Contains(host, "bitbucket"):
		return "x-token-auth"
	}
	return "x-access-token"
}

// netrc finds host's login and password in ~/.netrc (or $NETRC), falling
// back to its "default" entry. A missing file is no credentials.
func (c Credentials) netrc(host string) (login, password string, err error) {
	path := c.getenv("NETRC")
	if path == "" {
		if c.Home == "" {
			return "", "", nil
		}
		path = filepath.Join(c.Home, ".netrc")
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Split(bufio.ScanWords)
	var machine, defLogin, defPassword string
	inMacro := false
	for sc.Scan() {
		word := sc.Text()
		if inMacro {
			continue // a macro runs to the end of the file in practice
		}
		switch word {
		case "machine":
			if sc.Scan() {
				machine = sc.Text()
			}
		case "default":
			machine = "\x00default"
		case "login", "password":
			if !sc.Scan() {
				break
			}
			val := sc.Text()
			switch {
			case strings.EqualFold(machine, host) && word == "login":
				login = val
			case strings.EqualFold(machine, host):
				password = val
			case machine == "\x00default" && word == "login":
				defLogin = val
			case machine == "\x00default":
				defPassword = val
			}
		case "macdef":
			inMacro = true
		}
	}
	if password == "" {
		login, password = defLogin, defPassword
	}
	return login, password, sc.Err()
}

func (c Credentials) sshAuth(r remote) (auth, error) {
	user := r.User
	if user == "" {
		user = "git"
	}
	passphrase := c.getenv("LESSONS_SSH_KEY_PASSPHRASE")
	if key := c.getenv("LESSONS_SSH_KEY"); key != "" {
		m, err := gitssh.NewPublicKeysFromFile(user, key, passphrase)
		if err != nil {
			return auth{}, fmt.Errorf("ssh key %s (LESSONS_SSH_KEY): %w", key, err)
		}
		return auth{method: refusable{m, "the key in " + key + " (LESSONS_SSH_KEY)"}}, nil
	}
	var agentErr error
	if c.getenv("SSH_AUTH_SOCK") != "" {
		m, err := gitssh.NewSSHAgentAuth(user)
		if err == nil {
			return auth{method: refusable{m, "the keys in ssh-agent"}}, nil
		}
		agentErr = err
	}
	for _, name := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
		key := filepath.Join(c.Home, ".ssh", name)
		if _, err := os.Stat(key); err != nil {
			continue
		}
		m, err := gitssh.NewPublicKeysFromFile(user, key, passphrase)
		if err != nil {
			return auth{}, fmt.Errorf("ssh key %s: %w (set LESSONS_SSH_KEY_PASSPHRASE, or use ssh-agent)", key, err)
		}
		return auth{method: refusable{m, "the key in " + key}}, nil
	}
	// Without a method go-git would try ssh-agent again, and fail saying
	// only that SSH_AUTH_SOCK is not set.
	if agentErr != nil {
		return auth{}, fmt.Errorf("%w: no SSH key for %s: ssh-agent: %v, LESSONS_SSH_KEY is not set and ~/.ssh has no id_ed25519, id_ecdsa or id_rsa", ErrAuth, r.Host, agentErr)
	}
	return auth{}, fmt.Errorf("%w: no SSH key for %s: set LESSONS_SSH_KEY to a private key file, run ssh-agent, or create ~/.ssh/id_ed25519", ErrAuth, r.Host)
}

// refusable is an SSH auth method that turns the server refusing its
// keys into an error wrapping transport.ErrAuthenticationRequired, which
// netErr reports as ErrAuth with its hint; golang.org/x/crypto/ssh itself
// only says "unable to authenticate", in words.
type refusable struct {
	gitssh.AuthMethod
	keys string // which keys it offers, for the error
}

func (m refusable) ClientConfig() (*ssh.ClientConfig, error) {
	cfg, err := m.AuthMethod.ClientConfig()
	if err != nil {
		return nil, err
	}
	cfg.AuthCallback = func(ctx *ssh.ClientAuthContext) (ssh.AuthMethod, error) {
		if slices.Contains(ctx.TriedMethods, "publickey") {
			return nil, fmt.Errorf("%w: the server refused %s", transport.ErrAuthenticationRequired, m.keys)
		}
		return nil, nil // go on with cfg.Auth
	}
	return cfg, nil
}

// scrubbed is an error whose message had secrets removed; Unwrap keeps
// errors.Is working on the original.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// scrub removes rawURL's credentials and every secret from err's message.
func scrub(err error, rawURL string, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := strings.ReplaceAll(err.Error(), rawURL, Redact(rawURL))
	for _, s := range secrets {
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "***")
		}
	}
	return &scrubbed{msg: msg, err: err}
}
