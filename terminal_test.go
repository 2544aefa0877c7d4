package lessons

import "testing"

func TestDisplayed(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain error: nothing drawn", "plain error: nothing drawn"},
		{"\x1b[31mError:\x1b[0m kept colours", "\x1b[31mError:\x1b[0m kept colours"},
		// a progress line written over, then the error over it
		{"Fetching 10%\rFetching 60%\rerror: the lock file is frozen", "error: the lock file is frozen"},
		// a line ended with CRLF, and a progress line's last state
		{"error: the lock file is frozen\r", "error: the lock file is frozen"},
		{"[###   ] 50%\r[######] 100%\r", "[######] 100%"},
		// a spinner rubbed out with backspaces, then the text over it
		{"Resolving |\b/\b-\b\\\bdone, error: frozen", "Resolving done, error: frozen"},
		// overstruck letters (bold, underline) as a pager draws them
		{"N\bNA\bAM\bME\bE: _\bt_\bo_\bo_\bl", "NAME: tool"},
		// a line erased before the error
		{"Installing packages\r\x1b[2Kerror: no space left", "error: no space left"},
		{"Installing packages\r\x1b[Kerror: x", "error: x"},
		// a spinner's frame in front, a bell, a NUL
		{"⠙ error: the lock file is frozen\a", "error: the lock file is frozen"},
		{"\x1b[36m⠹\x1b[0m error: frozen", "\x1b[36m\x1b[0merror: frozen"},
		{"a\x00b", "ab"},
		{"  ⠼ error: frozen", "  error: frozen"},
		// a braille glyph in the text is text
		{"error: ⠙ is not a spinner here", "error: ⠙ is not a spinner here"},
	} {
		if got := Displayed(tt.in); got != tt.want {
			t.Errorf("Displayed(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestErrorLineAsDisplayed: the line a lesson on the error is made of is
// the one the terminal showed, not the frames of the progress before it.
func TestErrorLineAsDisplayed(t *testing.T) {
	out := "Exit code 1\n⠋ Resolving\r⠙ Resolving\r⠹ Resolving\rerror: lockfile had changes, but lockfile is frozen\nDone in 2s"
	if got, _ := ErrorLine(out); got != "error: lockfile had changes, but lockfile is frozen" {
		t.Errorf("ErrorLine = %q, want the error as displayed", got)
	}
	if got := ErrorClass(out); got != "error: lockfile had changes, but lockfile is frozen" {
		t.Errorf("ErrorClass = %q, want the error as displayed", got)
	}
}
