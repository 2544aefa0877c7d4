package secret

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"

	"github.com/lessons-dev/lessons/engine/secret/internal/rulegen"
	"github.com/lessons-dev/lessons/engine/secret/secrettest"
)

// TestGitleaksTableFresh: gitleaks_rules.go is what go generate makes
// from the gitleaks version go.mod names.
func TestGitleaksTableFresh(t *testing.T) {
	want, err := rulegen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("gitleaks_rules.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("gitleaks_rules.go is stale: run go generate ./engine/secret")
	}
	if len(gitleaksRules) < 150 {
		t.Errorf("%d gitleaks rules in the table, want its whole default set", len(gitleaksRules))
	}
}

// TestPatternsCompile: a pattern that does not compile would hide every
// text it is run on.
func TestPatternsCompile(t *testing.T) {
	var patterns []string
	for _, rs := range [][]rule{ownRules, gitleaksRules} {
		for _, r := range rs {
			patterns = append(patterns, r.pattern)
			for _, a := range r.allow {
				patterns = append(patterns, a.patterns...)
			}
		}
	}
	for _, a := range gitleaksAllow {
		patterns = append(patterns, a.patterns...)
	}
	for _, p := range append(patterns, markerPattern, namedPattern) {
		if re(p) == nil {
			t.Errorf("%s does not compile", p)
		}
	}
}

func TestFindHidesEveryKind(t *testing.T) {
	if n := len(secrettest.Secrets); n < 42 {
		t.Fatalf("only %d kinds of secret planted, want at least 42", n)
	}
	for _, s := range secrettest.Secrets {
		if got := Redact(s.Text, "[REDACTED]"); strings.Contains(got, s.Value) || !strings.Contains(got, "[REDACTED]") {
			t.Errorf("%s: Redact(%q) = %q", s.Kind, s.Text, got)
		}
	}
}

// TestFindDecoded: an escape cannot hide a secret, and the finding
// covers the escaped form.
func TestFindDecoded(t *testing.T) {
	for in, want := range map[string]string{
		`solution: "curl -d {\"password\":\"J50n-Pa55-w0rd\"} https://x"`:      `solution: "curl -d {\"password\":\"X\"} https://x"`,
		`{"command":"curl -d '{\\\"password\\\":\\\"J50n-Pa55-w0rd\\\"}'"}`:    `{"command":"curl -d '{\\\"password\\\":\\\"X\\\"}'"}`,
		`problem: 'mysql -u root -p''Tr0ub4dor3xyz'' shop'`:                    `problem: 'mysql -u root -pX shop'`,
		`"text":"token hf_4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a\u0038c9d in the log"`: `"text":"token X in the log"`,
	} {
		if got := Redact(in, "X"); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFindKeepsPlainText(t *testing.T) {
	for _, s := range []string{
		"go test ./... -run TestX",
		"docker run -p 8080:80 nginx",
		"psql -U app -h db -p 5432 shop",
		"curl http://localhost:8080/api/users/@me",
		"git push --force-with-lease origin main",
		"echo $TOKEN | docker login --password-stdin -u ci ghcr.io",
		"echo $SUDO_PASSWORD | sudo -S pacman -Syu",
		"echo y | sudo pacman -S ripgrep",
		"redis-cli -a $REDIS_PASSWORD ping",
		"mysql -u root -p shop",
		"services: postgres://postgres:postgres@localhost:5432/test",
		"deploy --password <your-password> --env prod",
	} {
		if fs := Find(s); len(fs) > 0 {
			t.Errorf("Find(%q) = %v, want nothing", s, fs)
		}
	}
}

// TestFindsWhatGitleaksFinds proves the generated table: on every
// planted secret and every built-in lesson, each secret gitleaks' own
// detector finds is inside a span Find reports.
func TestFindsWhatGitleaksFinds(t *testing.T) {
	logging.Logger = zerolog.Nop()
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range secrettest.Secrets {
		texts = append(texts, s.Text)
	}
	files, _ := filepath.Glob("../../lessons.d/*.yaml")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	checked := 0
	for _, text := range texts {
		hidden := Redact(text, "\x00")
		for _, f := range d.DetectString(text) {
			if len(f.Secret) < minSecret {
				continue
			}
			checked++
			if strings.Contains(hidden, f.Secret) {
				t.Errorf("gitleaks finds %s %q in %q; Find does not", f.RuleID, f.Secret, text)
			}
		}
	}
	if checked < 20 {
		t.Errorf("gitleaks found only %d secrets: the comparison proves little", checked)
	}
}

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{
		"mycli deploy: never pass --password hunter2-Corral on the command line": "mycli deploy: never pass --password on the command line",
		"DATABASE_PASSWORD=db-Pa55-w0rd-42 npm run migrate fails":                "DATABASE_PASSWORD npm run migrate fails",
		"git clone with ghp_R4nd0mT0k3nV4lu3sXq9Lm2Kp7Zc8Vb1Nd6Hf in the URL":    "git clone with the API token in the URL",
		"mycli deploy: never pass --password [REDACTED] on the command line":     "mycli deploy: never pass --password on the command line",
		"login with [REDACTED] fails":                                            "login with the secret fails",
		"mysql -u root -p'Tr0ub4dor3xyz' shop":                                   "mysql -u root -p shop",
		"plain text stays":                                                       "plain text stays",
	} {
		got := Sentence(in)
		if got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(strings.ToLower(got), "redacted") {
			t.Errorf("Sentence(%q) = %q holds a marker", in, got)
		}
	}
}

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

// TestKeywordIndexAgreesWithContains proves the prefilter: on every
// planted text, the rules the index picks are those with a keyword the
// text contains (or none at all).
func TestKeywordIndexAgreesWithContains(t *testing.T) {
	brute := func(r rule, lower string) bool {
		if len(r.keywords) == 0 {
			return true
		}
		for _, k := range r.keywords {
			if strings.Contains(lower, k) {
				return true
			}
		}
		return false
	}
	texts := []string{"", "a", "?", "x&y", "ghp_ and AKIA and sk-ant- and hooks.slack.com"}
	for _, s := range secrettest.Secrets {
		texts = append(texts, s.Text)
	}
	for _, text := range texts {
		lower := strings.ToLower(text)
		own, gl := index().rules(lower)
		for i, r := range ownRules {
			if own[i] != brute(r, lower) {
				t.Errorf("%q: own rule %s picked %v", text, r.id, own[i])
			}
		}
		for i, r := range gitleaksRules {
			if gl[i] != brute(r, lower) {
				t.Errorf("%q: gitleaks rule %s picked %v", text, r.id, gl[i])
			}
		}
	}
}

// TestScanPicksTheIndexRules: the keyword scan a process uses for its
// first short texts picks the rules the index does.
func TestScanPicksTheIndexRules(t *testing.T) {
	texts := []string{"", "a", "?", "x&y", "ghp_ and AKIA and sk-ant- and hooks.slack.com", "go test ./... -run TestParse"}
	for _, s := range secrettest.Secrets {
		texts = append(texts, s.Text)
	}
	for _, text := range texts {
		lower := strings.ToLower(text)
		own, gl := index().rules(lower)
		gotOwn, gotGl := scanKeywords(lower)
		if !slices.Equal(gotOwn, own) {
			t.Errorf("%q: the scan picks own rules %v, the index %v", text, gotOwn, own)
		}
		if !slices.Equal(gotGl, gl) {
			t.Errorf("%q: the scan picks gitleaks rules %v, the index %v", text, gotGl, gl)
		}
	}
}

// TestFewShortTextsSkipTheIndex: a process that redacts a command and
// an error line, as the hook does, picks their rules by the scan and
// never builds the keyword index; past directTexts texts it uses the
// index, with the same findings.
func TestFewShortTextsSkipTheIndex(t *testing.T) {
	saved := directDone.Load()
	defer directDone.Store(saved)
	directDone.Store(0)
	texts := []string{"go test ./internal/... -run TestParse -count 1", "curl -H 'Authorization: Bearer abcdefghijklmnop' https://example.com"}
	var first []string
	for _, text := range texts {
		first = append(first, Redact(text, "X"))
	}
	if n := directDone.Load(); n != int32(len(texts)) {
		t.Fatalf("%d texts went by the scan, want %d", n, len(texts))
	}
	directDone.Store(directTexts)
	for i, text := range texts {
		if got := Redact(text, "X"); got != first[i] {
			t.Errorf("by the index %q, by the scan %q", got, first[i])
		}
	}
	if first[1] == texts[1] {
		t.Errorf("the bearer token was not redacted: %q", first[1])
	}
}
