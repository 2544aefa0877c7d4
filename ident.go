package lessons

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

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
