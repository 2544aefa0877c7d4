package lessons

import "testing"

func TestSupports(t *testing.T) {
	for min, want := range map[string]bool{
		"0.0.1": true, Version: true, "v" + Version: true, "0.1.0-rc1": true,
		"0.2.0": false, "1.0.0": false, "0.1.1": false, "one": false, "1.0": false,
	} {
		if got := Supports(min); got != want {
			t.Errorf("Supports(%q) = %v, want %v (this is %s)", min, got, want, Version)
		}
	}
}
