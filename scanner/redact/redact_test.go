package redact

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lessons-dev/lessons/engine/secret/secrettest"
)

func TestStringHidesEveryKind(t *testing.T) {
	if n := len(secrettest.Secrets); n < 25 {
		t.Fatalf("only %d kinds of secret planted, want at least 25", n)
	}
	for _, s := range secrettest.Secrets {
		got := String(s.Text)
		if strings.Contains(got, s.Value) {
			t.Errorf("%s: String(%q) = %q, still holds the secret", s.Kind, s.Text, got)
		}
		if !strings.Contains(got, Marker) {
			t.Errorf("%s: String(%q) = %q, no marker", s.Kind, s.Text, got)
		}
		if fs := Find(s.Text); len(fs) == 0 {
			t.Errorf("%s: Find(%q) = %v; want a finding", s.Kind, s.Text, fs)
		}
	}
}

func TestStringKeepsContext(t *testing.T) {
	for in, want := range map[string]string{
		"mysql -u root -pTr0ub4dor3xyz shop":             "mysql -u root -p" + Marker + " shop",
		"tool --password 'a b c d' --x":                  "tool --password " + Marker + " --x",
		"curl 'https://h/x?page=2&access_token=abcdef1'": "curl 'https://h/x?page=2&access_token=" + Marker + "'",
		"Authorization: Basic YWRtaW46czNjcjN0LXBhc3M=":  "Authorization: Basic " + Marker,
		"git clone https://bob:pw12345@example.com/x":    "git clone https://bob:" + Marker + "@example.com/x",
		"DATABASE_PASSWORD=db-Pa55-w0rd-42 make":         "DATABASE_PASSWORD=" + Marker + " make",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStringLeavesPlainText(t *testing.T) {
	for _, s := range []string{
		"go test ./... -run TestX",
		"mkdir -p build/out && cd build",
		"docker run -p 8080:80 nginx",
		"git push --force-with-lease origin main",
		"pytest -s tests/ < /dev/null",
		"kubectl get pods -n prod -o wide",
		"the login handler failed: password too short",
		"curl -u alice https://example.com",
		"mysql -u root -p shop",
		"mysql -u root -p$MYSQL_PWD shop",
		"curl -u $USER:$TOKEN https://example.com",
		"deploy --password <your-password> --env prod",
		"docker build --secret id=npmrc,src=$HOME/.npmrc .",
		"services: postgres://postgres:postgres@localhost:5432/test",
		"Use `git push --force-with-lease` instead; `--force` overwrites teammates' commits.",
	} {
		if got := String(s); got != s {
			t.Errorf("String(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestBuiltinLessonsHoldNoSecret: the built-in lessons are the kind of
// text submit checks, and none holds a secret; what our rules would
// wrongly flag there (chown $(id -u):$(id -g), date -u +%H:%M, docker's
// --secret id=x, postgres:postgres@ in CI) must pass.
func TestBuiltinLessonsHoldNoSecret(t *testing.T) {
	files, err := filepath.Glob("../../lessons.d/*.yaml")
	if err != nil || len(files) < 10 {
		t.Fatalf("built-in lessons: %d files, %v", len(files), err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range Find(string(b)) {
			t.Errorf("%s: %s finds %q", filepath.Base(f), x.Rule, string(b)[x.Start:x.End])
		}
	}
}

func TestStringIsIdempotent(t *testing.T) {
	for _, s := range secrettest.Secrets {
		once := String(s.Text)
		if twice := String(once); twice != once {
			t.Errorf("%s: String(String(x)) = %q, String(x) = %q", s.Kind, twice, once)
		}
	}
}

func BenchmarkString(b *testing.B) {
	text := "go test ./... failed: exit status 1\nFix: run `go vet ./...` first (`go vet ./... && go test ./...` worked)."
	String(text) // load the rules
	for b.Loop() {
		String(text)
	}
}

// TestStringConcurrent: the scanner redacts from several workers at once.
func TestStringConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, s := range secrettest.Secrets {
				if got := String(s.Text); strings.Contains(got, s.Value) {
					t.Errorf("%s: String(%q) = %q", s.Kind, s.Text, got)
				}
			}
		})
	}
	wg.Wait()
}
