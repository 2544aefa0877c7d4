package pack

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

const token = "s3cret-token-1234"

func TestPrivateRepoOverHTTP(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	packtest.NewUpstream(t, root, "private", packtest.PackFiles(2))
	base := packtest.StartHTTP(t, root, "x-access-token", token)
	ref := lessons.PackRef{Name: "private", URL: base + "private.git"}

	t.Run("token", func(t *testing.T) {
		e := newTestEnv(t)
		e.env["LESSONS_GIT_TOKEN"], e.env["LESSONS_GIT_TOKEN_HOSTS"] = token, "127.0.0.1"
		if r := e.one(Options{}, ref); r.Err != nil || !r.Activated {
			t.Fatalf("sync with the right token: err %v activated %v", r.Err, r.Activated)
		}
	})
	t.Run("wrong token", func(t *testing.T) {
		e := newTestEnv(t)
		e.env["LESSONS_GIT_TOKEN"], e.env["LESSONS_GIT_TOKEN_HOSTS"] = "wrong-token-5678", "127.0.0.1"
		r := e.one(Options{}, ref)
		if !errors.Is(r.Err, ErrAuth) {
			t.Fatalf("sync with a wrong token: err %v, want ErrAuth", r.Err)
		}
		if strings.Contains(r.Err.Error(), "wrong-token-5678") || !strings.Contains(r.Err.Error(), "LESSONS_GIT_TOKEN") {
			t.Errorf("error %q shows the secret or lacks the hint", r.Err)
		}
		if r.Offline != nil {
			t.Errorf("a refused credential was taken for being offline: %v", r.Offline)
		}
	})
	t.Run("no token", func(t *testing.T) {
		e := newTestEnv(t)
		if r := e.one(Options{}, ref); !errors.Is(r.Err, ErrAuth) {
			t.Fatalf("sync without credentials: err %v, want ErrAuth", r.Err)
		}
	})
	t.Run("netrc", func(t *testing.T) {
		e := newTestEnv(t)
		e.env["LESSONS_GIT_TOKEN_HOSTS"] = "127.0.0.1" // plain HTTP: only to a host the user lists
		netrc := filepath.Join(e.syncer.Creds.Home, ".netrc")
		os.WriteFile(netrc, []byte("machine example.com login a password b\nmachine 127.0.0.1\n  login x-access-token\n  password "+token+"\n"), 0o600)
		if r := e.one(Options{}, ref); r.Err != nil {
			t.Fatalf("sync with ~/.netrc: %v", r.Err)
		}
	})
	t.Run("credentials in the URL", func(t *testing.T) {
		e := newTestEnv(t)
		withCreds := ref
		withCreds.URL = strings.Replace(base, "http://", "http://x-access-token:"+token+"@", 1) + "private.git"
		if r := e.one(Options{}, withCreds); r.Err != nil || r.URL != ref.URL {
			t.Fatalf("sync with user:token in the URL: err %v, url %q", r.Err, r.URL)
		}
		for _, f := range []string{LockPath(e.dirs.GlobalConfig()), filepath.Join(e.dirs.Cache, "packs", "private", "repo", "config")} {
			if data, _ := os.ReadFile(f); strings.Contains(string(data), token) {
				t.Errorf("%s holds the token:\n%s", f, data)
			}
		}
		bad := ref
		bad.URL = strings.Replace(base, "http://", "http://x-access-token:bad-secret-99@", 1) + "private.git"
		if r := e.one(Options{}, bad); r.Err == nil || strings.Contains(r.Err.Error(), "bad-secret-99") {
			t.Errorf("wrong credentials in the URL: err %v (must fail without showing them)", r.Err)
		}
	})
}

func TestCredentialsFor(t *testing.T) {
	env := map[string]string{"GITHUB_TOKEN": "gh-token"}
	c := Credentials{Getenv: func(k string) string { return env[k] }, Home: t.TempDir()}
	for _, tc := range []struct {
		url, user, pass string
	}{
		{"https://github.com/acme/pack.git", "x-access-token", "gh-token"},
		{"https://gitlab.com/acme/pack.git", "", ""}, // GITHUB_TOKEN goes to github.com only
		{"http://github.example.com/acme/pack.git", "", ""},
	} {
		a, err := c.For(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		var user, pass string
		if b, ok := a.method.(*githttp.BasicAuth); ok {
			user, pass = b.Username, b.Password
		}
		if user != tc.user || pass != tc.pass {
			t.Errorf("For(%q) = %q:%q, want %q:%q", tc.url, user, pass, tc.user, tc.pass)
		}
	}
	env["LESSONS_GIT_TOKEN"] = "lt"
	for _, tc := range []struct{ url, hosts, user string }{
		{"https://gitlab.com/a/b", "", "oauth2"},
		{"https://bitbucket.org/a/b", "", "x-token-auth"},
		{"https://git.example.com/x", "", ""},
		{"https://alice@git.example.com/x", "git.example.com", "alice"},
	} {
		env["LESSONS_GIT_TOKEN_HOSTS"] = tc.hosts
		a, _ := c.For(tc.url)
		b, ok := a.method.(*githttp.BasicAuth)
		switch {
		case tc.user == "" && ok:
			t.Errorf("For(%q) sends LESSONS_GIT_TOKEN to a host the user did not list", tc.url)
		case tc.user != "" && (!ok || b.Username != tc.user || b.Password != "lt"):
			t.Errorf("For(%q) with hosts %q = %v, want user %s with LESSONS_GIT_TOKEN", tc.url, tc.hosts, a.method, tc.user)
		}
	}
	env["LESSONS_GIT_TOKEN_HOSTS"] = ""
	if a, _ := c.For("http://git.example.com/x"); a.method != nil {
		t.Error("a token is sent over plain HTTP to a remote host")
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pass@github.com/a/b.git":                                     "https://github.com/a/b.git",
		"https://ghp_token@github.com/a/b.git":                                     "https://github.com/a/b.git",
		"ssh://git@github.com/a/b.git":                                             "ssh://git@github.com/a/b.git",
		"ssh://git:pw@github.com/a/b.git":                                          "ssh://github.com/a/b.git",
		"git@github.com:a/b.git":                                                   "git@github.com:a/b.git",
		"git://127.0.0.1:9418/team.git":                                            "git://127.0.0.1:9418/team.git",
		"https://u:p%zz@host/x":                                                    "https://host/x",
		"https://github.com/a/b.git":                                               "https://github.com/a/b.git",
		"https://user:p@ss@github.com/a/b?x=1":                                     "https://github.com/a/b?x=1",
		"https://u:pa?ss@github.com/a/b":                                           "https://github.com/a/b",
		"https://gitlab.example.com/g/p.git?private_token=glpat-abc123&ref=x":      "https://gitlab.example.com/g/p.git?private_token=REDACTED&ref=x",
		"https://h/p?access_token=s3&Token=s4&X-Amz-Signature=s5&api%5Fkey=s6&a=b": "https://h/p?access_token=REDACTED&Token=REDACTED&X-Amz-Signature=REDACTED&api%5Fkey=REDACTED&a=b",
		"https://tok@h?token=s":                                                    "https://h?token=REDACTED",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPullRequestURL(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"https://github.com/acme/pack.git", "https://github.com/acme/pack/compare/main...lesson/x-1?expand=1"},
		{"git@github.com:acme/pack.git", "https://github.com/acme/pack/compare/main...lesson/x-1?expand=1"},
		{"https://tok@gitlab.com/g/sub/pack", "https://gitlab.com/g/sub/pack/-/merge_requests/new?merge_request%5Bsource_branch%5D=lesson%2Fx-1&merge_request%5Btarget_branch%5D=main"},
		{"ssh://git@bitbucket.org/acme/pack.git", "https://bitbucket.org/acme/pack/pull-requests/new?dest=main&source=lesson%2Fx-1"},
		{"git://127.0.0.1:9418/pack.git", ""},
	} {
		if got := PullRequestURL(tc.remote, "lesson/x-1", "main"); got != tc.want {
			t.Errorf("PullRequestURL(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}

func TestCredentialIn(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/a/b.git":                   "",
		"git@github.com:a/b.git":                       "",
		"ssh://git@github.com/a/b.git":                 "",
		"https://h/p.git?ref=main":                     "",
		"https://ghp_x@github.com/a/b":                 "the user information before @",
		"https://u:p@h/p":                              "the user information before @",
		"https://gitlab.com/g/p.git?private_token=glp": "the query parameter private_token",
		"https://h/p?x=1&access_token=a":               "the query parameter access_token",
		"https://h/p?token=a":                          "the query parameter token",
	} {
		if got := CredentialIn(in); got != want {
			t.Errorf("CredentialIn(%q) = %q, want %q", in, got, want)
		}
	}
}
