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

// A Python traceback raised while handling another: the error a lesson
// quotes is the one that escaped, which the class names, not the one it
// was handling.
func TestErrorTextIsTheExceptionRaisedLast(t *testing.T) {
	out := "Traceback (most recent call last):\n  File \"/x/postgrest/_sync/request_builder.py\", line 95, in execute\n    json_obj = model_validate_json(APIErrorFromJSON, r.content)\n" +
		"pydantic_core._pydantic_core.ValidationError: 2 validation errors for APIErrorFromJSON\n\nDuring handling of the above exception, another exception occurred:\n\n" +
		"Traceback (most recent call last):\n  File \"<stdin>\", line 11, in <module>\n    raise APIError(generate_default_error_message(r))\n" +
		"postgrest.exceptions.APIError: {'message': 'Could not find the table public.daily_sale in the schema cache', 'code': 'PGRST205'}"
	r := &Result{Output: out, IsError: true, ExitCode: 1}
	if text := r.errorText(); strings.Contains(text, "ValidationError") || !strings.Contains(text, "postgrest.exceptions.APIError") {
		t.Errorf("error text %q: want the exception raised last", text)
	}
}
