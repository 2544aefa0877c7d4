package pack

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

// sshKey is a key pair whose private half is in a file, as LESSONS_SSH_KEY
// names it.
type sshKey struct {
	priv ed25519.PrivateKey
	pub  ssh.PublicKey
	file string
	pem  []byte // the file's content
}

// newSSHKey writes a new ed25519 private key, OpenSSH PEM, to dir/name,
// encrypted with passphrase unless it is "".
func newSSHKey(t *testing.T, dir, name, passphrase string) sshKey {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var block *pem.Block
	if passphrase == "" {
		block, err = ssh.MarshalPrivateKey(priv, "lessons test key")
	} else {
		block, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "lessons test key", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	k := sshKey{priv: priv, file: filepath.Join(dir, name), pem: pem.EncodeToMemory(block)}
	if k.pub, err = ssh.NewPublicKey(pub); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k.file, k.pem, 0o600); err != nil {
		t.Fatal(err)
	}
	return k
}

// isolateSSH keeps the user's own SSH setup out of the test: no agent, a
// home without ~/.ssh, and knownHosts as the only known_hosts file.
func isolateSSH(t *testing.T, knownHosts string) {
	t.Setenv("SSH_AUTH_SOCK", "")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("SSH_KNOWN_HOSTS", knownHosts)
}

// assertNoKeyMaterial fails the test if msg shows any part of the keys.
func assertNoKeyMaterial(t *testing.T, msg string, keys ...sshKey) {
	t.Helper()
	if strings.Contains(msg, "PRIVATE KEY") {
		t.Errorf("error shows a private key: %q", msg)
	}
	for _, k := range keys {
		pub := strings.Fields(string(ssh.MarshalAuthorizedKey(k.pub)))[1]
		if strings.Contains(msg, pub) {
			t.Errorf("error shows a public key: %q", msg)
		}
		for _, line := range strings.Split(string(k.pem), "\n") {
			if len(line) >= 16 && !strings.HasPrefix(line, "-----") && strings.Contains(msg, line) {
				t.Errorf("error shows a line of the private key: %q", msg)
			}
		}
	}
}

func TestSyncOverSSH(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(3))
	key := newSSHKey(t, t.TempDir(), "id_test", "")
	srv := packtest.StartSSH(t, root, key.pub)
	isolateSSH(t, srv.KnownHosts)
	e := newTestEnv(t)
	e.env["LESSONS_SSH_KEY"] = key.file
	ref := lessons.PackRef{Name: "team", URL: srv.URL + "team.git"}

	r := e.one(Options{}, ref)
	if r.Err != nil {
		t.Fatalf("sync over SSH: %v", r.Err)
	}
	head := packtest.Git(t, up.Work, "rev-parse", "HEAD")
	if !r.Activated || r.Commit != head || r.Lessons != 3 || r.Offline != nil {
		t.Fatalf("sync over SSH = activated %v commit %s lessons %d offline %v, want true %s 3 nil", r.Activated, r.Commit, r.Lessons, r.Offline, head)
	}
	entry := e.lock().Entry("team")
	if entry == nil || entry.Commit != head || !strings.HasPrefix(entry.Hash, "h1:") || entry.URL != ref.URL {
		t.Fatalf("lock entry = %+v", entry)
	}
	if got := e.activeFiles("team"); len(got) != 3 {
		t.Fatalf("active lessons = %v, want 3 files", got)
	}

	next := up.Commit("one more", map[string]string{"lessons/new-one.yaml": packtest.LessonYAML("new-one", 9)})
	r = e.one(Options{Update: true}, ref)
	if r.Err != nil || !r.Activated || r.Commit != next || r.Lessons != 4 {
		t.Fatalf("update over SSH = err %v activated %v commit %s lessons %d, want %s with 4", r.Err, r.Activated, r.Commit, r.Lessons, next)
	}
}

// TestSSHKeyPassphrase: an encrypted LESSONS_SSH_KEY opens with
// LESSONS_SSH_KEY_PASSPHRASE, and a wrong passphrase fails before any
// connection, without showing the passphrase.
func TestSSHKeyPassphrase(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	locked := newSSHKey(t, t.TempDir(), "id_locked", "open sesame 42")
	srv := packtest.StartSSH(t, root, locked.pub)
	isolateSSH(t, srv.KnownHosts)
	ref := lessons.PackRef{Name: "team", URL: srv.URL + "team.git"}
	e := newTestEnv(t)
	e.env["LESSONS_SSH_KEY"] = locked.file
	e.env["LESSONS_SSH_KEY_PASSPHRASE"] = "wrong passphrase 7"

	r := e.one(Options{}, ref)
	if r.Err == nil || srv.Execs() != 0 {
		t.Fatalf("sync with a wrong passphrase: err %v, %d git commands run", r.Err, srv.Execs())
	}
	if msg := r.Err.Error(); strings.Contains(msg, "wrong passphrase 7") || !strings.Contains(msg, "LESSONS_SSH_KEY") {
		t.Errorf("error %q shows the passphrase or does not name LESSONS_SSH_KEY", msg)
	}
	assertNoKeyMaterial(t, r.Err.Error(), locked)

	e.env["LESSONS_SSH_KEY_PASSPHRASE"] = "open sesame 42"
	head := packtest.Git(t, up.Work, "rev-parse", "HEAD")
	if r := e.one(Options{}, ref); r.Err != nil || r.Commit != head || r.Lessons != 2 {
		t.Fatalf("sync with the key's passphrase = err %v commit %s lessons %d, want %s with 2", r.Err, r.Commit, r.Lessons, head)
	}
}

// startAgent serves an ssh-agent holding key on a unix socket, and
// points SSH_AUTH_SOCK at it, for go-git and for e.
func startAgent(t *testing.T, e *testEnv, key sshKey) {
	t.Helper()
	keyring := agent.NewKeyring()
	if err := keyring.Add(agent.AddedKey{PrivateKey: key.priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			go agent.ServeAgent(keyring, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	t.Setenv("SSH_AUTH_SOCK", sock)
	e.env["SSH_AUTH_SOCK"] = sock
}

// TestSSHAgent: with no LESSONS_SSH_KEY, the keys in ssh-agent are used,
// and the server refusing them is ErrAuth.
func TestSSHAgent(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	keys := t.TempDir()
	good := newSSHKey(t, keys, "id_good", "")
	srv := packtest.StartSSH(t, root, good.pub)
	ref := lessons.PackRef{Name: "team", URL: srv.URL + "team.git"}

	t.Run("authorized", func(t *testing.T) {
		isolateSSH(t, srv.KnownHosts)
		e := newTestEnv(t)
		startAgent(t, e, good)
		head := packtest.Git(t, up.Work, "rev-parse", "HEAD")
		if r := e.one(Options{}, ref); r.Err != nil || r.Commit != head || r.Lessons != 2 {
			t.Fatalf("sync with the key in ssh-agent = err %v commit %s lessons %d, want %s with 2", r.Err, r.Commit, r.Lessons, head)
		}
	})
	t.Run("refused", func(t *testing.T) {
		isolateSSH(t, srv.KnownHosts)
		e := newTestEnv(t)
		wrong := newSSHKey(t, keys, "id_wrong", "")
		startAgent(t, e, wrong)
		r := e.one(Options{}, ref)
		if !errors.Is(r.Err, ErrAuth) || r.Offline != nil || !strings.Contains(r.Err.Error(), "the server refused the keys in ssh-agent") {
			t.Fatalf("sync with a refused key in ssh-agent: err %v offline %v, want ErrAuth saying so", r.Err, r.Offline)
		}
		assertNoKeyMaterial(t, r.Err.Error(), good, wrong)
	})
}

func TestSSHWrongKeyIsRefused(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	keys := t.TempDir()
	good := newSSHKey(t, keys, "id_good", "")
	wrong := newSSHKey(t, keys, "id_wrong", "")
	srv := packtest.StartSSH(t, root, good.pub)
	isolateSSH(t, srv.KnownHosts)
	ref := lessons.PackRef{Name: "team", URL: srv.URL + "team.git"}

	check := func(t *testing.T, r Result) {
		t.Helper()
		if r.Err == nil || r.Activated || srv.Execs() != 0 {
			t.Fatalf("sync = err %v activated %v, %d git commands run; want it refused", r.Err, r.Activated, srv.Execs())
		}
		if !errors.Is(r.Err, ErrAuth) || r.Offline != nil {
			t.Errorf("error %v (offline %v) is not ErrAuth", r.Err, r.Offline)
		}
		if msg := r.Err.Error(); !strings.Contains(msg, "the server refused the key in") || !strings.Contains(msg, "LESSONS_SSH_KEY") {
			t.Errorf("error %q does not say the key was refused, or lacks the hint", msg)
		}
		assertNoKeyMaterial(t, r.Err.Error(), good, wrong)
	}
	t.Run("LESSONS_SSH_KEY", func(t *testing.T) {
		e := newTestEnv(t)
		e.env["LESSONS_SSH_KEY"] = wrong.file
		r := e.one(Options{}, ref)
		check(t, r)
		if e.lockBytes() != "" {
			t.Errorf("a refused sync wrote the lock:\n%s", e.lockBytes())
		}
	})
	t.Run("key in ~/.ssh", func(t *testing.T) {
		e := newTestEnv(t)
		dotSSH := filepath.Join(e.syncer.Creds.Home, ".ssh")
		os.MkdirAll(dotSSH, 0o700)
		os.WriteFile(filepath.Join(dotSSH, "id_ed25519"), wrong.pem, 0o600)
		check(t, e.one(Options{}, ref))
	})
	t.Run("no key", func(t *testing.T) {
		e := newTestEnv(t)
		r := e.one(Options{}, ref)
		if !errors.Is(r.Err, ErrAuth) || r.Offline != nil || srv.Execs() != 0 {
			t.Fatalf("sync without a key = err %v offline %v, %d git commands run; want ErrAuth", r.Err, r.Offline, srv.Execs())
		}
		if msg := r.Err.Error(); !strings.Contains(msg, "no SSH key") || !strings.Contains(msg, "LESSONS_SSH_KEY") {
			t.Errorf("error %q does not say that no key was found, and how to give one", msg)
		}
	})
}

func TestSSHUnknownHostKey(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	key := newSSHKey(t, t.TempDir(), "id_test", "")
	srv := packtest.StartSSH(t, root, key.pub)
	ref := lessons.PackRef{Name: "team", URL: srv.URL + "team.git"}
	addr := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "ssh://git@"), "/")
	other := newSSHKey(t, t.TempDir(), "id_other", "")
	dir := t.TempDir()

	for _, tc := range []struct{ name, knownHosts, want string }{
		{"host not listed", knownhosts.Line([]string{"[127.0.0.1]:1", "example.com"}, srv.HostKey), "key is unknown"},
		{"host listed with another key", knownhosts.Line([]string{knownhosts.Normalize(addr)}, other.pub), "key mismatch"},
		{"no known_hosts file", "", "known_hosts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			if tc.knownHosts != "" {
				os.WriteFile(file, []byte(tc.knownHosts+"\n"), 0o644)
			}
			isolateSSH(t, file)
			e := newTestEnv(t)
			e.env["LESSONS_SSH_KEY"] = key.file
			r := e.one(Options{}, ref)
			if r.Err == nil || r.Activated || srv.Execs() != 0 {
				t.Fatalf("sync = err %v activated %v, %d git commands run; want the host refused", r.Err, r.Activated, srv.Execs())
			}
			if r.Offline != nil || errors.Is(r.Err, ErrUnreachable) {
				t.Errorf("an unknown host key was taken for being offline: %v", r.Err)
			}
			if !strings.Contains(r.Err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", r.Err, tc.want)
			}
			if tc.knownHosts != "" && !strings.Contains(r.Err.Error(), "ssh-keyscan") {
				t.Errorf("error %q gives no hint on fixing known_hosts", r.Err)
			}
		})
	}
}

func TestSubmitOverSSH(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	key := newSSHKey(t, t.TempDir(), "id_test", "")
	srv := packtest.StartSSH(t, root, key.pub)
	isolateSSH(t, srv.KnownHosts)
	e := newTestEnv(t)
	e.env["LESSONS_SSH_KEY"] = key.file
	ref := Subscription{PackRef: lessons.PackRef{Name: "team", URL: srv.URL + "team.git"}}
	mainBefore := packtest.Git(t, up.Bare, "rev-parse", "main")
	sub := Submission{
		Slug: "over-ssh", File: []byte(packtest.LessonYAML("over-ssh", 42)),
		Author: object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)},
	}

	got, err := e.syncer.Submit(t.Context(), ref, sub)
	if err != nil {
		t.Fatalf("Submit over SSH: %v", err)
	}
	checkSubmitted(t, up, got, sub, mainBefore)
	if _, err := e.syncer.Submit(t.Context(), ref, sub); !errors.Is(err, ErrBranchExists) {
		t.Errorf("second submit of the same slug: err %v, want ErrBranchExists", err)
	}
}

// TestSSHServerStaysInItsRoot: packtest's SSH server refuses a repository
// path that leaves the directory it serves.
func TestSSHServerStaysInItsRoot(t *testing.T) {
	packtest.NeedGit(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "served")
	os.Mkdir(root, 0o755)
	packtest.NewUpstream(t, dir, "outside", packtest.PackFiles(1))
	key := newSSHKey(t, t.TempDir(), "id_test", "")
	srv := packtest.StartSSH(t, root, key.pub)
	isolateSSH(t, srv.KnownHosts)
	e := newTestEnv(t)
	e.env["LESSONS_SSH_KEY"] = key.file
	r := e.one(Options{}, lessons.PackRef{Name: "outside", URL: srv.URL + "../outside.git"})
	if r.Err == nil || srv.Execs() != 0 {
		t.Fatalf("sync of a path outside the served root = err %v, %d git commands run; want it refused", r.Err, srv.Execs())
	}
}
