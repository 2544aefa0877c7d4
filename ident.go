package lessons

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// NewID returns a new lesson id: a ULID with entropy from crypto/rand.
func NewID(now time.Time) string {
	return ulid.MustNew(ulid.Timestamp(now), rand.Reader).String()
}

// nonSlug is compiled on first use: the hook's binary links this package
// and every package-level compile would cost each tool call.
var nonSlug = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// slugWords caps how many words of the summary a slug keeps.
const slugWords = 8

// NewSlug returns the kebab-case form of summary with a random 4-character
// suffix, for example "pytest-hangs-waiting-on-a-tty-k3x9".
func NewSlug(summary string) string {
	words := strings.Fields(nonSlug().ReplaceAllString(strings.ToLower(summary), " "))
	if len(words) > slugWords {
		words = words[:slugWords]
	}
	base := strings.Join(words, "-")
	if base == "" {
		base = "lesson"
	}
	return base + "-" + randomSuffix()
}

func randomSuffix() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [4]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

// ComputeContentHash is the sha256 of the lesson's problem, solution and
// triggers: two lessons with the same hash say the same thing.
func ComputeContentHash(l *Lesson) string {
	trig, _ := json.Marshal(l.Triggers)
	h := sha256.New()
	for _, part := range [][]byte{[]byte(l.Problem), []byte(l.Solution), trig} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
