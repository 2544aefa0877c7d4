package pack

import (
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// These helpers run the real git binary, only to build fixtures and serve
// them; the code under test reaches them through go-git alone.

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found; the pack tests need it to serve repositories")
	}
}

// gitEnv isolates git from the user's configuration.
func gitEnv(home string) []string {
	return append(os.Environ(),
		"HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Fixture", "GIT_AUTHOR_EMAIL=fixture@example.com",
		"GIT_COMMITTER_NAME=Fixture", "GIT_COMMITTER_EMAIL=fixture@example.com",
		"GIT_TERMINAL_PROMPT=0",
	)
}

func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// upstream is a bare repository served by the test servers, and a work
// tree that commits and pushes to it.
type upstream struct {
	t    testing.TB
	bare string
	work string
}

// newUpstream creates root/<name>.git with one commit holding files.
func newUpstream(t testing.TB, root, name string, files map[string]string) *upstream {
	t.Helper()
	u := &upstream{t: t, bare: filepath.Join(root, name+".git"), work: filepath.Join(t.TempDir(), name)}
	runGit(t, root, "init", "-q", "--bare", "-b", "main", u.bare)
	runGit(t, root, "init", "-q", "-b", "main", u.work)
	u.commit("initial pack", files)
	return u
}

// commit writes files (an empty content removes the file), commits and
// pushes, and returns the new commit.
func (u *upstream) commit(msg string, files map[string]string) string {
	u.t.Helper()
	for name, content := range files {
		p := filepath.Join(u.work, filepath.FromSlash(name))
		if content == "" {
			os.Remove(p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			u.t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "symlink:"); ok {
			if err := os.Symlink(target, p); err != nil {
				u.t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			u.t.Fatal(err)
		}
	}
	runGit(u.t, u.work, "add", "-A")
	runGit(u.t, u.work, "commit", "-q", "--allow-empty", "-m", msg)
	runGit(u.t, u.work, "push", "-q", "-f", u.bare, "HEAD:refs/heads/main")
	return runGit(u.t, u.work, "rev-parse", "HEAD")
}

// rewrite replaces the last commit (amend) and force-pushes it.
func (u *upstream) rewrite(msg string) string {
	u.t.Helper()
	runGit(u.t, u.work, "commit", "-q", "--amend", "--allow-empty", "-m", msg)
	runGit(u.t, u.work, "push", "-q", "-f", u.bare, "HEAD:refs/heads/main")
	runGit(u.t, u.bare, "reflog", "expire", "--expire=now", "--all")
	runGit(u.t, u.bare, "gc", "-q", "--prune=now")
	return runGit(u.t, u.work, "rev-parse", "HEAD")
}

// freePort finds a port on 127.0.0.1 nobody listens on.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startDaemon serves root over git:// on 127.0.0.1, pushes allowed, and
// returns the base URL ("git://127.0.0.1:PORT/") and a function stopping
// the server.
func startDaemon(t testing.TB, root string) (string, func()) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		port := freePort(t)
		// git-daemon itself: "git daemon" would run it as a child that
		// outlives a kill.
		cmd := exec.Command(filepath.Join(runGit(t, root, "--exec-path"), "git-daemon"), "--listen=127.0.0.1", fmt.Sprintf("--port=%d", port),
			"--base-path="+root, "--export-all", "--enable=receive-pack", "--reuseaddr", "--informative-errors", root)
		cmd.Env = gitEnv(root)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() { cmd.Process.Kill(); <-exited }
		t.Cleanup(stop)
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			select {
			case <-exited:
			default:
				if c, err := net.Dial("tcp", addr); err == nil {
					c.Close()
					return "git://" + addr + "/", stop
				}
				continue
			}
			break
		}
		if attempt == 3 {
			t.Fatal("git daemon did not start")
		}
	}
}

// startHTTP serves root over smart HTTP (git http-backend through
// net/http/cgi) on 127.0.0.1, asking for basic auth user:password, and
// returns the base URL ("http://127.0.0.1:PORT/").
func startHTTP(t testing.TB, root, user, password string) string {
	t.Helper()
	backend := filepath.Join(runGit(t, root, "--exec-path"), "git-http-backend")
	h := &cgi.Handler{
		Path: backend,
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root},
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != password {
			w.Header().Set("WWW-Authenticate", `Basic realm="packs"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		r.Header.Del("Authorization")
		h.ServeHTTP(w, r)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String() + "/"
}
