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
