package scanner

import "testing"

// TestSaidWhy: a test run fails on a test file's missing globals; the
// agent says why and reruns with the option it named, which works. The
// error names neither the option nor the call, so only the agent's
// words tell this fix from a rerun that happened to pass: it is a
// candidate. The same retry without the words, or with words that only
// name the command (the test of cargo test --test-threads), or one that
// turns a check off though the agent names it, is none.
func TestSaidWhy(t *testing.T) {
	fail := "FAIL  src/title.test.ts\nReferenceError: describe is not defined\n ❯ src/title.test.ts:3:1\nTest Files  1 failed (1)"
	cases := []struct {
		name   string
		steps  []step
		retry  bool
		reason string
	}{
		{"explained", []step{
			run("npx vitest run src/title.test.ts", 1, fail),
			say("The suite needs vitest globals enabled; rerunning with them."),
			run("npx vitest run src/title.test.ts --globals", 0, "Test Files  1 passed (1)"),
		}, true, "the agent named the option it added"},
		{"silent", []step{
			run("npx vitest run src/title.test.ts", 1, fail),
			run("npx vitest run src/title.test.ts --globals", 0, "Test Files  1 passed (1)"),
		}, false, "nothing ties the option to the failure"},
		{"the command's own word", []step{
			run("cargo test", 101, "error[E0277]: `AppConfig` doesn't implement `Debug`\n  --> src/config.rs:13:1\nerror: could not compile `app` (lib test) due to 1 previous error"),
			say("Debug is missing on the config struct; fixing it, then the test helper."),
			run("cargo test -- --test-threads=1", 0, "test result: ok. 74 passed"),
		}, false, "the agent spoke of the tests, not of their threads"},
		{"bypass", []step{
			run(`git commit -m "Add title"`, 1, "husky - pre-commit script failed (code 1)\n"+fail),
			say("The hook fails on an unrelated suite; committing with no-verify to skip it."),
			run(`git commit --no-verify -m "Add title"`, 0, "[main 1a2b3c4] Add title"),
		}, false, "an option that skips a check is a way around it"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		writeClaude(t, dir, "/p", "s1", c.steps)
		retry := false
		for _, cand := range reaching(t, dir) {
			retry = retry || cand.Kind == KindRetry
		}
		if retry != c.retry {
			t.Errorf("%s: retry candidate %v, want %v (%s): %q", c.name, retry, c.retry, c.reason, summaries(reaching(t, dir)))
		}
	}
}
