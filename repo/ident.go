package repo

// Lessons get their identity and content hash here, not in the root
// package: the hook's binary links the root package, and ulid,
// crypto/rand and crypto/sha256 would add their start-up to every tool
// call.

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// NewID returns a new lesson id: a ULID with entropy from crypto/rand.
func NewID(now time.Time) string {
	return ulid.MustNew(ulid.Timestamp(now), rand.Reader).String()
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slugWords caps how many words of the summary a slug keeps.
const slugWords = 8

// NewSlug returns the kebab-case form of summary with a random 4-character
// suffix, for example "pytest-hangs-waiting-on-a-tty-k3x9". A slug names
// a file, a branch and a commit: a secret in the summary is taken out
// first (secret.Sentence), and no word of it is "redacted".
func NewSlug(summary string) string {
	words := strings.Fields(nonSlug.ReplaceAllString(strings.ToLower(secret.Sentence(summary)), " "))
	words = slices.DeleteFunc(words, func(w string) bool { return w == "redacted" })
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

// ContentHash is the sha256 of the lesson's problem, solution and
// triggers: two lessons with the same hash say the same thing.
func ContentHash(l *lessons.Lesson) string {
	trig, _ := json.Marshal(l.Triggers)
	h := sha256.New()
	for _, part := range [][]byte{[]byte(l.Problem), []byte(l.Solution), trig} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
