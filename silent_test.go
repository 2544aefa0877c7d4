package lessons

import "testing"

// TestStatusOnlyPattern: the pattern finds an output that is only an
// agent's status line for the exit status, in each agent's words, and
// not one that printed something, nor another status.
func TestStatusOnlyPattern(t *testing.T) {
	re, err := CompilePattern(StatusOnlyPattern(49))
	if err != nil {
		t.Fatal(err)
	}
	for out, want := range map[string]bool{
		"Exit code 49":   true,
		"Exit code 49\n": true,
		"Exit code: 49\nWall time: 0.1 seconds\nOutput:\n": true,
		"Exit Code: 49":               true,
		"Process exited with code 49": true,
		"Exit code 49\nPython was not found; run without arguments to install": false,
		"Exit code 1":   false,
		"Exit code 490": false,
	} {
		if got, _ := re.MatchString(out); got != want {
			t.Errorf("%q: %v, want %v", out, got, want)
		}
	}
}
