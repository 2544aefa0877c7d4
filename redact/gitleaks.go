package redact

import (
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

// gitleaksFindings returns gitleaks' findings in s, as spans of s. A
// finding gitleaks reports only as a value (decoded, or spread over
// lines) is located by searching for that value.
func gitleaksFindings(s string) ([]Finding, error) {
	d, err := detector()
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, f := range d.DetectString(s) {
		secret := f.Secret
		if len(secret) < minSecret {
			continue
		}
		for from := 0; ; {
			i := indexFrom(s, secret, from)
			if i < 0 {
				break
			}
			out = append(out, Finding{Rule: f.RuleID, Start: i, End: i + len(secret)})
			from = i + len(secret)
		}
	}
	return out, nil
}

// minSecret is the shortest value worth hiding: a shorter one hides
// nothing and replacing it everywhere would mangle the text.
const minSecret = 6
