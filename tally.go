package lessons

import "strings"

// A test runner, a linter or a compiler ends a failed run with a count
// ("Found 4 errors.", "3 failed, 12 passed", "1 error") or a report that
// something failed ("Some errors were emitted while running checks."). It
// names nothing: two runs that print it may fail for two reasons, so it
// is no error a failure can be known by from one session to the next.
// The line above it that names what failed (a file, a test, a message)
// is.

// TallyLine reports whether an error line only counts or reports
// failures: once numbers and punctuation are set aside, each of its
// words is a count or report word, and one of them says something
// failed.
func TallyLine(l string) bool {
	failed := false
	n := 0
	for _, w := range strings.Fields(strings.ToLower(StripANSI(l))) {
		w = strings.Trim(w, ":.,;()[]{}!|-=•·")
		if w == "" || strings.ContainsAny(w, "0123456789") {
			continue
		}
		if !tallyWords[w] && !statusWords[w] {
			return false
		}
		n++
		failed = failed || failWords[w]
	}
	return failed && n > 0
}

// NamedErrorLine is the first line of a failed call's output that says
// what went wrong and names it: a line ErrorClass reads that says
// something went wrong and is no tally (TallyLine), no runner's status
// line, no heading and no row of a table, nor Gradle's header or a report
// of its that only points elsewhere (buildCause); "" when the output has
// none.
func NamedErrorLine(text string) string {
	re := classPatterns()
	lines := errorLines(text, false)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if cause, end, ok := buildCause(lines, i); ok {
			if cause != "" {
				return cause
			}
			i = end
			continue
		}
		if saysError(l, re) && !TallyLine(l) && !isWrapperLine(l, re) && !isHeading(l) && !tableRow(l) && !BuildHeader(l) {
			return l
		}
	}
	return ""
}

// tallyWords are the words of a count or a report of failures, besides
// statusWords; failWords those of them that say something failed.
var (
	tallyWords = setOf("found", "some", "were", "was", "is", "are", "emitted", "occurred", "while", "checks", "check",
		"checking", "build", "compilation", "tests", "test", "suites", "suite", "files", "file", "problems", "problem",
		"issues", "issue", "warnings", "warning", "passed", "pass", "passing", "skipped", "pending", "todo", "total",
		"and", "ms", "s", "x", "×", "✖", "✗", "✘", "had", "has", "have", "there", "summary", "failures", "failing",
		"time", "duration", "collected", "items", "item", "a", "an", "err", "errors", "generated", "detected", "reported",
		"assertions", "assertion", "examples", "example", "specs", "spec", "cases", "case")
	failWords = setOf("error", "errors", "err", "err!", "failed", "fail", "failure", "failures", "failing", "problems", "problem")
)
