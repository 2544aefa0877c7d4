package redact

import (
	"strings"
	"sync"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// detector is gitleaks with its default configuration, built on first
// use: compiling its rules costs tens of milliseconds that commands which
// store nothing should not pay.
var detector = sync.OnceValues(func() (*detect.Detector, error) {
	// gitleaks logs to stderr; lessons-cli's output is its own.
	logging.Logger = zerolog.Nop()
	return detect.NewDetectorDefaultConfig()
})

// secret is a value gitleaks found, and its rule.
type secret struct{ rule, value string }

// gitleaksSecrets returns the secrets gitleaks finds in s, as values:
// where it found them is not always in s (a decoded value), so callers
// locate them.
func gitleaksSecrets(s string) ([]secret, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	d, err := detector()
	if err != nil {
		return nil, err
	}
	var out []secret
	for _, f := range d.DetectString(s) {
		if len(f.Secret) >= minSecret {
			out = append(out, secret{f.RuleID, f.Secret})
		}
	}
	return out, nil
}

// locate returns every occurrence in s of the secrets.
func locate(s string, secrets []secret) []Finding {
	var out []Finding
	for _, sec := range secrets {
		for from := 0; ; {
			i := strings.Index(s[from:], sec.value)
			if i < 0 {
				break
			}
			out = append(out, Finding{Rule: sec.rule, Start: from + i, End: from + i + len(sec.value)})
			from += i + len(sec.value)
		}
	}
	return out
}

// minSecret is the shortest value worth hiding: a shorter one hides
// nothing and replacing it everywhere would mangle the text.
const minSecret = 6
