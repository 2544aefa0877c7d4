package repo

import (
	"strings"
	"testing"
	"time"

	"github.com/lessons-dev/lessons"
)

func TestNewSlug(t *testing.T) {
	s := NewSlug("Pytest hangs: waiting for a TTY!")
	if !strings.HasPrefix(s, "pytest-hangs-waiting-for-a-tty-") || len(s) != len("pytest-hangs-waiting-for-a-tty-")+4 {
		t.Errorf("NewSlug = %q", s)
	}
}

func TestNewIDIsValid(t *testing.T) {
	a, b := NewID(time.Now()), NewID(time.Now())
	if a == b {
		t.Fatalf("two ids are equal: %s", a)
	}
	l := lessons.Lesson{ID: a}
	for _, p := range lessons.Validate(&l) {
		if p.Field == "id" {
			t.Errorf("NewID %s is not a valid id: %s", a, p.Message)
		}
	}
}

// TestNewSlugNamesNoSecret: a slug made from a summary holds neither a
// secret nor the word "redacted" a marker would leave.
func TestNewSlugNamesNoSecret(t *testing.T) {
	for summary, want := range map[string]string{
		"mycli deploy: never pass --password [REDACTED] on the command line": "mycli-deploy-never-pass-password-on-the-command-",
		"mycli deploy: never pass --password hunter2-Corral on the cli":      "mycli-deploy-never-pass-password-on-the-cli-",
		"REDACTED in a glob and [REDACTED] in text":                          "the-secret-in-a-glob-and-the-secret-",
	} {
		got := NewSlug(summary)
		if !strings.HasPrefix(got, want) || strings.Contains(got, "redacted") || strings.Contains(got, "hunter2") {
			t.Errorf("NewSlug(%q) = %q, want %s…", summary, got, want)
		}
	}
}
