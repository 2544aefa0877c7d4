package scanner

import "testing"

// TestReading: the agent's reading of a failure is the first statement
// after it that names something specific the output named; a plan, a
// question, or a sentence that names nothing of the output is none.
func TestReading(t *testing.T) {
	out := "error: Cannot find module 'left-pad' from 'vendor/clones/a/index.test.ts'\n3 fail"
	for _, tc := range []struct{ text, want string }{
		{"The failures come from vendor/clones/, not from our tests.", "The failures come from vendor/clones/, not from our tests."},
		{"Let me look at vendor/clones/ first. All failures are under vendor/clones/a, the cloned checkout.", "All failures are under vendor/clones/a, the cloned checkout."},
		{"Is left-pad missing from vendor/clones/a/index.test.ts?", ""},
		{"Tests failed, which is expected for this kind of change.", ""},                                     // names nothing of the output
		{"The import in index.test.ts is the cause here.", "The import in index.test.ts is the cause here."}, // a file name keeps its dot
		{"I'll install left-pad and run it again.", ""},
	} {
		if got := reading(tc.text, out); got != tc.want {
			t.Errorf("reading(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
