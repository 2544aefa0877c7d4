package engine

import (
	"os"
	"testing"
)

// TestMain sets regexp2's clock period before any test runs a regex, as
// the hook does: the clock keeps the period it started with until its
// next tick.
func TestMain(m *testing.M) {
	SetTimeoutCheckPeriod()
	os.Exit(m.Run())
}
