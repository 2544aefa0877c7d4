package lessons

import "testing"

func TestTallyLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"Found 4 errors.", true},
		{"3 failed", true},
		{"1 error", true},
		{"Tests: 1 failed, 9 passed, 10 total", true},
		{"× Some errors were emitted while running checks.", true},
		{"2 failed, 3 passed in 1.20s", true},
		{"Found 1 warning.", false}, // nothing failed
		{"FAILED tests/test_a.py::test_sum - AssertionError: 3 != 4", false},
		{"error: could not compile `app` due to 2 previous errors", false},
		{"src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.", false},
		{"fatal: Could not read from remote repository.", false},
	} {
		if got := TallyLine(tt.line); got != tt.want {
			t.Errorf("TallyLine(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestNamedErrorLine(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"Checked 12 files in 3ms.\nFound 2 errors.\n× Some errors were emitted while running checks.", ""},
		{"FAIL src/sum.test.ts > adds\nAssertionError: expected 3 to be 4\n\nTest Files  1 failed (1)\n 3 failed", "FAIL src/sum.test.ts > adds"},
		{"Found 1 error.\nsrc/a.go:3:1: undefined: Foo", "src/a.go:3:1: undefined: Foo"},
		// Gradle's header is no error named; its report's cause is, and
		// one that points at the test report leaves it to the tests' lines
		{"3 tests completed, 1 failed\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':core:test'.\n> There were failing tests. See the report at: file:///w/core/build/reports/tests/test/index.html\n\n* Try:\n> Run with --scan.\n\nBUILD FAILED in 7s\nParserTest > parsesEmpty() FAILED",
			"ParserTest > parsesEmpty() FAILED"},
		{"FAILURE: Build failed with an exception.\n\n* What went wrong:\nA problem occurred evaluating project ':app'.\n> Could not find method implementation() for arguments [x]\n",
			"Could not find method implementation() for arguments [x]"},
	} {
		if got := NamedErrorLine(tt.out); got != tt.want {
			t.Errorf("NamedErrorLine(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}
