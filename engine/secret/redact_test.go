package secret

import (
	"strings"
	"sync"
	"testing"

	"github.com/lessons-dev/lessons/engine/secret/secrettest"
)

func TestRedactHidesEveryKind(t *testing.T) {
	if n := len(secrettest.Secrets); n < 25 {
		t.Fatalf("only %d kinds of secret planted, want at least 25", n)
	}
	for _, s := range secrettest.Secrets {
		got := redactMarked(s.Text)
		if strings.Contains(got, s.Value) {
			t.Errorf("%s: redactMarked(%q) = %q, still holds the secret", s.Kind, s.Text, got)
		}
		if !strings.Contains(got, marker) {
			t.Errorf("%s: redactMarked(%q) = %q, no marker", s.Kind, s.Text, got)
		}
		if fs := Find(s.Text); len(fs) == 0 {
			t.Errorf("%s: Find(%q) = %v; want a finding", s.Kind, s.Text, fs)
		}
	}
}

func TestRedactKeepsContext(t *testing.T) {
	for in, want := range map[string]string{
		"mysql -u root -pTr0ub4dor3xyz shop":             "mysql -u root -p" + marker + " shop",
		"tool --password 'a b c d' --x":                  "tool --password " + marker + " --x",
		"curl 'https://h/x?page=2&access_token=abcdef1'": "curl 'https://h/x?page=2&access_token=" + marker + "'",
		"Authorization: Basic YWRtaW46czNjcjN0LXBhc3M=":  "Authorization: Basic " + marker,
		"git clone https://bob:pw12345@example.com/x":    "git clone https://bob:" + marker + "@example.com/x",
		"DATABASE_PASSWORD=db-Pa55-w0rd-42 make":         "DATABASE_PASSWORD=" + marker + " make",
	} {
		if got := redactMarked(in); got != want {
			t.Errorf("redactMarked(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactLeavesPlainText(t *testing.T) {
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
		if got := redactMarked(s); got != s {
			t.Errorf("redactMarked(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestRedactIsIdempotent(t *testing.T) {
	for _, s := range secrettest.Secrets {
		once := redactMarked(s.Text)
		if twice := redactMarked(once); twice != once {
			t.Errorf("%s: redactMarked(redactMarked(x)) = %q, redactMarked(x) = %q", s.Kind, twice, once)
		}
	}
}

func BenchmarkRedact(b *testing.B) {
	text := "go test ./... failed: exit status 1\nFix: run `go vet ./...` first (`go vet ./... && go test ./...` worked)."
	redactMarked(text) // load the rules
	for b.Loop() {
		redactMarked(text)
	}
}

// TestStringConcurrent: the scanner redacts from several workers at once.
func TestRedactConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, s := range secrettest.Secrets {
				if got := redactMarked(s.Text); strings.Contains(got, s.Value) {
					t.Errorf("%s: redactMarked(%q) = %q", s.Kind, s.Text, got)
				}
			}
		})
	}
	wg.Wait()
}

// marker is what the scanner puts where a secret was.
const marker = "[REDACTED]"

func redactMarked(s string) string { return Redact(s, marker) }
