package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestEchoedBannerIsNoError: a command echoes a banner before its check,
// and the check fails the same way in three sessions. The banner is the
// command's own text: the lesson names the check and its error, and its
// trigger does not fire on the banner alone.
func TestEchoedBannerIsNoError(t *testing.T) {
	cmd := `echo "=== vendor errors ===" && ./scripts/check.sh`
	out := "=== vendor errors ===\nchecksum mismatch: vendor/lib.a"
	known := knownIn(t, run(cmd, 1, out), run("ls", 0, "go.mod"))
	if len(known) != 1 {
		t.Fatalf("%d known failures, want 1", len(known))
	}
	c := known[0]
	if !strings.HasPrefix(c.Summary, "`scripts/check.sh` fails") || strings.Contains(c.Summary, "vendor errors") || !strings.Contains(c.Summary, "checksum mismatch") {
		t.Errorf("summary %q: want the check and its error, not echo and the banner", c.Summary)
	}
	for _, p := range c.Triggers.Errors {
		re, err := lessons.CompilePattern(p)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := re.MatchString("=== vendor errors ===\nall good"); ok {
			t.Errorf("error trigger %q fires on the banner alone", p)
		}
	}
}
