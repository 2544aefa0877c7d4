package pack

import (
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

// TestTokenGoesOnlyToListedHosts: LESSONS_GIT_TOKEN goes to the hosts in
// LESSONS_GIT_TOKEN_HOSTS, matched exactly; loopback is not special, and
// plain HTTP gets a credential only from a host listed there.
func TestTokenGoesOnlyToListedHosts(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"LESSONS_GIT_TOKEN": "lt-secret", "GITHUB_TOKEN": "gh-secret", "NETRC": home + "/netrc"}
	if err := os.WriteFile(env["NETRC"], []byte("machine 127.0.0.2 login me password netrc-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := Credentials{Getenv: func(k string) string { return env[k] }, Home: home}
	for _, tc := range []struct {
		url, hosts, want string // want: the password sent, "" for none
	}{
		{"http://127.0.0.1:8080/p.git", "", ""},
		{"http://127.0.0.2/p.git", "git.example.com", ""},
		{"http://localhost:9/p.git", "git.example.com", ""},
		{"https://localhost/p.git", "git.example.com", ""},
		{"http://[::1]:9/p.git", "", ""},
		{"http://127.0.0.2/p.git", "", ""}, // ~/.netrc has it, but over plain HTTP to an unlisted host
		{"http://github.com/a/b.git", "", ""},
		{"https://github.com.evil.example/a/b.git", "", ""},
		{"https://evilgithub.com/a/b.git", "", ""},
		{"http://127.0.0.1:8080/p.git", "127.0.0.1", "lt-secret"},
		{"http://127.0.0.1:8080/p.git", "127.0.0.1:8080", "lt-secret"},
		{"http://127.0.0.1:8081/p.git", "127.0.0.1:8080", ""},
		{"http://localhost:8080/p.git", "127.0.0.1", ""},
		{"https://git.example.com/p.git", " git.example.com ,other", "lt-secret"},
		{"https://gitlab.com/a/b.git", "", "lt-secret"},
		{"https://github.com/a/b.git", "gitlab.com", "gh-secret"}, // GITHUB_TOKEN: github.com only
		{"http://127.0.0.2/p.git", "127.0.0.2", "lt-secret"},
	} {
		env["LESSONS_GIT_TOKEN_HOSTS"] = tc.hosts
		a, err := c.For(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if b, ok := a.method.(*githttp.BasicAuth); ok {
			got = b.Password
		}
		if got != tc.want {
			t.Errorf("For(%q) with LESSONS_GIT_TOKEN_HOSTS=%q sends %q, want %q", tc.url, tc.hosts, got, tc.want)
		}
	}
}

// TestTokenNeverReachesAnUnlistedServer syncs from servers on loopback
// that record every credential they receive: one the user did not list,
// and one the user listed that redirects to another host.
func TestTokenNeverReachesAnUnlistedServer(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	hits := map[string]int{}
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits[name]++
			if a := r.Header.Get("Authorization"); a != "" {
				seen = append(seen, name+": "+a)
			}
			mu.Unlock()
			w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
			http.Error(w, "no", http.StatusUnauthorized)
		}
	}
	other := serve(t, "localhost:0", record("redirect target"))
	listed := serve(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+other+r.URL.RequestURI(), http.StatusFound)
	})
	unlisted := serve(t, "127.0.0.1:0", record("unlisted"))
	_, port, _ := net.SplitHostPort(unlisted)

	e := newTestEnv(t)
	e.env["LESSONS_GIT_TOKEN"] = token
	for _, tc := range []struct{ url, hosts string }{
		{"http://" + unlisted + "/p.git", "github.com"},
		{"http://localhost:" + port + "/p.git", "127.0.0.1"},
		{"http://" + unlisted + "/p.git", ""},
		{"http://" + listed + "/p.git", "127.0.0.1"},
	} {
		e.env["LESSONS_GIT_TOKEN_HOSTS"] = tc.hosts
		r := e.one(Options{}, lessons.PackRef{Name: "p", URL: tc.url})
		if r.Err == nil {
			t.Errorf("sync from %s succeeded against a server that refuses everyone", tc.url)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["redirect target"] == 0 || hits["unlisted"] == 0 {
		t.Errorf("requests received = %v: the test did not reach both servers", hits)
	}
	if len(seen) > 0 {
		t.Errorf("servers the user did not list received credentials:\n%s", strings.Join(seen, "\n"))
	}
}

// serve runs handler on addr until the test ends and returns host:port.
func serve(t *testing.T, addr string, handler http.HandlerFunc) string {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := &http.Server{Handler: handler}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	host, port, _ := net.SplitHostPort(addr)
	_, real, _ := net.SplitHostPort(l.Addr().String())
	if port == "0" {
		port = real
	}
	return net.JoinHostPort(host, port)
}

// TestQueryTokenIsKeptOutOfEverything syncs a URL whose query holds a
// token, as a hand-written config may: the token shows in no result,
// error, lock file or cached file.
func TestQueryTokenIsKeptOutOfEverything(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	packtest.NewUpstream(t, root, "team", packtest.PackFiles(1))
	base := packtest.StartHTTP(t, root, "x-access-token", token)
	const secret = "glpat-QUERYSECRET42"
	e := newTestEnv(t)
	e.env["LESSONS_GIT_TOKEN"], e.env["LESSONS_GIT_TOKEN_HOSTS"] = token, "127.0.0.1"
	for _, url := range []string{
		base + "team.git?private_token=" + secret,
		base + "team.git?ref=x&access_token=" + secret,
		strings.Replace(base, "http://", "http://oauth2:"+secret+"@", 1) + "missing.git?token=" + secret,
	} {
		r := e.one(Options{}, lessons.PackRef{Name: "team", URL: url})
		if s := fmt.Sprintf("%+v %v %v", r, r.Err, r.Offline); strings.Contains(s, secret) {
			t.Errorf("sync of %s shows the token: %s", Redact(url), s)
		}
		if !strings.Contains(r.URL, "REDACTED") {
			t.Errorf("result URL %q is not redacted", r.URL)
		}
	}
	files := []string{LockPath(e.dirs.GlobalConfig())}
	filepath.WalkDir(e.dirs.Cache, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	for _, f := range files {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), secret) {
			t.Errorf("%s holds the token:\n%s", f, data)
		}
	}
}
