package scope

import (
	"fmt"
	"hash/fnv"
	"testing"
)

// TestNameHash: names stay what fmt wrote, "%016x" of the FNV-1a hash,
// so the state and manifests of an earlier version are still found.
func TestNameHash(t *testing.T) {
	for _, s := range []string{"", "bench", "/home/u/proj", "sess/agent/a1", "\x00\xff", "ünïcode"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := NameHash(s), fmt.Sprintf("%016x", h.Sum64()); got != want {
			t.Errorf("NameHash(%q) = %s, want %s", s, got, want)
		}
	}
	if got := NameHash("bench"); got != "d7e5ac5e896d1d39" {
		t.Errorf(`NameHash("bench") = %s, want the name an earlier version gave`, got)
	}
}
