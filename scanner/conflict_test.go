package scanner

import (
	"strings"
	"testing"
)

// TestConflictTeachesNothing: a rebase stops on a merge conflict in
// three sessions, each time before any change, and the agent resolves
// it and continues; in the same sessions a test fails before any change.
// The test failure is a known failure; the conflict, the work of
// bringing two branches together, is no candidate of any kind.
func TestConflictTeachesNothing(t *testing.T) {
	dir := t.TempDir()
	conflict := "Auto-merging cart/tax.go\nCONFLICT (content): Merge conflict in cart/tax.go\n" +
		"error: could not apply 1a2b3c4... Add tax\nhint: Resolve all conflicts manually, mark them as resolved with\n" +
		"hint: \"git add/rm <conflicted_files>\", then run \"git rebase --continue\"."
	fail := "--- FAIL: TestClock (0.00s)\n    clock_test.go:9: want 09:00 in Europe/Paris, got 08:00\nFAIL\tshop/clock\t0.01s"
	for _, id := range []string{"s1", "s2", "s3"} {
		writeClaude(t, dir, "/p", id, []step{
			run("go test ./...", 1, fail),
			run("git rebase origin/main", 1, conflict),
			write("/p/cart/tax.go", "package cart"),
			run("git add cart/tax.go && git rebase --continue", 0, "Successfully rebased and updated refs/heads/tax."),
		})
	}
	cs := reaching(t, dir)
	known := false
	for _, c := range cs {
		if strings.Contains(strings.ToLower(c.Summary+c.Problem+c.Solution), "conflict") || strings.Contains(c.Summary, "rebase") {
			t.Errorf("candidate from a merge conflict: %s: %s", c.Kind, c.Summary)
		}
		known = known || c.Kind == KindKnown && strings.Contains(c.Summary, "go test") && atFailure(c)
	}
	if !known {
		t.Errorf("candidates %q: want the known test failure still", summaries(cs))
	}
}
