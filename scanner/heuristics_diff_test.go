package scanner

import (
	"strings"
	"testing"
)

// A formatter's failed check prints diffs of the files; their lines
// ("/// Returns an error if …") are the code's, not what failed: the
// error text a lesson quotes, and its trigger, are the diffs' headers,
// also where a long output was cut inside a diff.
func TestErrorTextLeavesOutWhatDiffsQuote(t *testing.T) {
	diff := "Diff in /p/src/config.rs:34:\n /// Returns an error if only one of the variables is set.\n pub fn fetch() -> Result<Config> {\n\x1b[31m-    let url = var(\"URL\")\n\x1b(B\x1b[m\x1b[32m+    let url =\n\x1b(B\x1b[m"
	long := "Exit code 1\n" + diff + strings.Repeat(" // the error path\n", 600) + "Diff in /p/src/risk.rs:46:\n     /// Fails with an error when the file cannot be read.\n"
	for _, out := range []string{"Exit code 1\n" + diff, long} {
		r := &Result{Output: keepOutput(out), IsError: true, ExitCode: 1}
		if got, _, _ := strings.Cut(r.errorText(), "\n"); !strings.HasPrefix(got, "Diff in /p/src/") {
			t.Errorf("error text starts %q, want a diff's header", got)
		}
		if strings.Contains(r.errorText(), "Returns") || strings.Contains(r.errorText(), "Fails with") {
			t.Errorf("error text %q quotes the code", r.errorText())
		}
	}
}
