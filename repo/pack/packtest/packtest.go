// Package packtest serves git repositories on 127.0.0.1 for the tests of
// team packs: a real git daemon (git://, pushes allowed), git
// http-backend behind net/http/cgi with basic auth, and an in-process SSH
// server running git upload-pack and receive-pack. It runs the git
// binary, which only tests may do; the code under test uses go-git.
package packtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// NeedGit skips the test when the git binary is missing.
func NeedGit(t testing.TB) {
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

// Git runs git in dir, isolated from the user's configuration, and
// returns its trimmed output; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
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

// Upstream is a bare repository served by the test servers, and a work
// tree that commits and pushes to it.
type Upstream struct {
	t    testing.TB
	Bare string // the served repository
	Work string // a clone that commits and pushes
}

// NewUpstream creates root/<name>.git with one commit holding files.
func NewUpstream(t testing.TB, root, name string, files map[string]string) *Upstream {
	t.Helper()
	u := &Upstream{t: t, Bare: filepath.Join(root, name+".git"), Work: filepath.Join(t.TempDir(), name)}
	Git(t, root, "init", "-q", "--bare", "-b", "main", u.Bare)
	Git(t, root, "init", "-q", "-b", "main", u.Work)
	u.Commit("initial pack", files)
	return u
}

// Commit writes files (an empty content removes the file), commits and
// pushes, and returns the new commit.
func (u *Upstream) Commit(msg string, files map[string]string) string {
	u.t.Helper()
	for name, content := range files {
		p := filepath.Join(u.Work, filepath.FromSlash(name))
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
	Git(u.t, u.Work, "add", "-A")
	Git(u.t, u.Work, "commit", "-q", "--allow-empty", "-m", msg)
	Git(u.t, u.Work, "push", "-q", "-f", u.Bare, "HEAD:refs/heads/main")
	return Git(u.t, u.Work, "rev-parse", "HEAD")
}

// Rewrite replaces the last commit (amend) and force-pushes it.
func (u *Upstream) Rewrite(msg string) string {
	u.t.Helper()
	Git(u.t, u.Work, "commit", "-q", "--amend", "--allow-empty", "-m", msg)
	Git(u.t, u.Work, "push", "-q", "-f", u.Bare, "HEAD:refs/heads/main")
	Git(u.t, u.Bare, "reflog", "expire", "--expire=now", "--all")
	Git(u.t, u.Bare, "gc", "-q", "--prune=now")
	return Git(u.t, u.Work, "rev-parse", "HEAD")
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

// StartDaemon serves root over git:// on 127.0.0.1, pushes allowed, and
// returns the base URL ("git://127.0.0.1:PORT/") and a function stopping
// the server.
func StartDaemon(t testing.TB, root string) (string, func()) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		port := freePort(t)
		// git-daemon itself: "git daemon" would run it as a child that
		// outlives a kill.
		cmd := exec.Command(filepath.Join(Git(t, root, "--exec-path"), "git-daemon"), "--listen=127.0.0.1", fmt.Sprintf("--port=%d", port),
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

// StartHTTP serves root over smart HTTP (git http-backend through
// net/http/cgi) on 127.0.0.1, asking for basic auth user:password, and
// returns the base URL ("http://127.0.0.1:PORT/"). Pushes are allowed:
// http-backend takes them from an authenticated user, which every request
// that reaches it is.
func StartHTTP(t testing.TB, root, user, password string) string {
	t.Helper()
	backend := filepath.Join(Git(t, root, "--exec-path"), "git-http-backend")
	h := &cgi.Handler{
		Path: backend,
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root,
			"REMOTE_USER=" + user},
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

// LessonID is a valid, deterministic ULID for fixture n.
func LessonID(n int) string { return fmt.Sprintf("01HX%022d", n) }

// LessonYAML is a valid lesson file, numbered n, whose trigger is the
// command "cmdN" without --flag.
func LessonYAML(slug string, n int) string {
	return fmt.Sprintf(`id: %s
slug: %s
summary: Lesson %s says something useful
problem: Running cmd%d without the flag hangs the agent's shell for good.
solution: Pass --flag to cmd%d, or run it under timeout so it ends.
triggers:
  commands: ['\bcmd%d\b(?!.*--flag)']
examples:
  match: [cmd%d run]
  noMatch: [cmd%d run --flag]
`, LessonID(n), slug, slug, n, n, n, n, n)
}

// PackFiles is a pack with n lessons named lesson-0 … lesson-(n-1),
// and a pack.yaml.
func PackFiles(n int) map[string]string {
	files := map[string]string{"pack.yaml": "name: team\ndescription: fixture\n"}
	for i := range n {
		slug := fmt.Sprintf("lesson-%d", i)
		files["lessons/"+slug+".yaml"] = LessonYAML(slug, i)
	}
	return files
}

// SSHServer serves the git repositories under a root directory over SSH
// on 127.0.0.1, running git upload-pack and git receive-pack.
type SSHServer struct {
	// URL is the base URL, "ssh://git@127.0.0.1:PORT/": append
	// "<name>.git".
	URL string
	// KnownHosts is a known_hosts file holding the server's host key, for
	// SSH_KNOWN_HOSTS.
	KnownHosts string
	// HostKey is the server's public host key.
	HostKey ssh.PublicKey

	execs atomic.Int32
}

// Execs is how many git commands the server has run: 0 means no client
// got that far.
func (s *SSHServer) Execs() int { return int(s.execs.Load()) }

// StartSSH serves root over SSH on 127.0.0.1, with a new ed25519 host key,
// to clients that authenticate with the authorized key (under any user
// name). It stops when the test ends.
func StartSSH(t testing.TB, root string, authorized ssh.PublicKey) *SSHServer {
	t.Helper()
	_, hostKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{
		PublicKeyCallback: func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if bytes.Equal(key.Marshal(), authorized.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("key not authorized")
		},
	}
	cfg.AddHostKey(signer)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &SSHServer{
		URL:        "ssh://git@" + l.Addr().String() + "/",
		KnownHosts: filepath.Join(t.TempDir(), "known_hosts"),
		HostKey:    signer.PublicKey(),
	}
	line := knownhosts.Line([]string{knownhosts.Normalize(l.Addr().String())}, s.HostKey)
	if err := os.WriteFile(s.KnownHosts, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Stopping closes the listener and every connection, and waits for the
	// git commands to end before the test's directories go.
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		closed bool
		conns  = map[net.Conn]bool{}
	)
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			if closed {
				c.Close()
			} else {
				conns[c] = true
			}
			mu.Unlock()
			wg.Go(func() {
				s.serve(c, cfg, root)
				c.Close()
				mu.Lock()
				delete(conns, c)
				mu.Unlock()
			})
		}
	})
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		closed = true
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return s
}

// serve runs one connection: the handshake, then its sessions one after
// the other (git opens one per connection).
func (s *SSHServer) serve(c net.Conn, cfg *ssh.ServerConfig, root string) {
	conn, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		return // the client left, or failed to authenticate
	}
	defer conn.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "only sessions")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			continue
		}
		s.session(ch, chReqs, root)
	}
}

// session waits for the session's exec request and runs it; it refuses
// every other request (env, pty-req, shell).
func (s *SSHServer) session(ch ssh.Channel, reqs <-chan *ssh.Request, root string) {
	defer ch.Close()
	for req := range reqs {
		var payload struct{ Command string }
		if req.Type != "exec" || ssh.Unmarshal(req.Payload, &payload) != nil {
			req.Reply(false, nil)
			continue
		}
		req.Reply(true, nil)
		go ssh.DiscardRequests(reqs)
		status := s.run(ch, root, payload.Command)
		ch.CloseWrite()
		ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
		return
	}
}

// run runs the command line that git sends over SSH, with the channel as
// its standard streams, and returns its exit status.
func (s *SSHServer) run(ch ssh.Channel, root, line string) uint32 {
	service, repo, err := gitCommand(root, line)
	if err != nil {
		fmt.Fprintf(ch.Stderr(), "fatal: %v\n", err)
		return 128
	}
	s.execs.Add(1)
	cmd := exec.Command("git", service, repo)
	cmd.Env = gitEnv(root)
	cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
	// A pipe rather than cmd.Stdin = ch: Wait would wait for the client
	// to close its side, which it need not do before the exit status.
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintf(ch.Stderr(), "fatal: %v\n", err)
		return 128
	}
	go func() {
		io.Copy(stdin, ch)
		stdin.Close()
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return uint32(exit.ExitCode())
	}
	return 128
}

// gitCommand parses "git-upload-pack '<path>'" or "git-receive-pack
// '<path>'" into the git subcommand and the repository under root. It
// refuses any other command, and paths that leave root.
func gitCommand(root, line string) (service, repo string, err error) {
	name, arg, _ := strings.Cut(line, " ")
	service, ok := strings.CutPrefix(name, "git-")
	if !ok || (service != "upload-pack" && service != "receive-pack") {
		return "", "", fmt.Errorf("command %q not allowed: only git-upload-pack and git-receive-pack", line)
	}
	path, quoted := strings.CutPrefix(arg, "'")
	path, closed := strings.CutSuffix(path, "'")
	if !quoted || !closed || strings.Contains(path, "'") {
		return "", "", fmt.Errorf("repository path %s is not one single-quoted word", arg)
	}
	rel := filepath.FromSlash(strings.TrimLeft(path, "/"))
	if !filepath.IsLocal(rel) {
		return "", "", fmt.Errorf("repository path %q is outside the served directory", path)
	}
	return service, filepath.Join(root, rel), nil
}
