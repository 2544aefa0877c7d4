package scanner

import (
	"testing"
	"time"
)

func TestClassifyReason(t *testing.T) {
	cases := []struct {
		reason             string
		question, feedback bool
	}{
		{"use pnpm", false, false},
		{"do not stash anything, read the files you need", false, false},
		{"Never run the migration on prod; use the staging db instead", false, false},
		{"prefer rg over grep", false, false},
		{"Will this technique work in GitHub CI? I want to understand before running locally.", false, true},
		{"is 241 really still a problem?", true, false},
		{"can you use a switch case instead of linked ifelse", true, false},
		{"Why not keep the old name", true, false},
		{"it happens with gc too (how does that fit with the index?)", true, false},
		{"please add transformer.js too first", false, true},
		{"Hold. I want to keep it simple - no connection pooling for now.", false, true},
		{"Never mind! But I'd like a details element with the usage", false, true},
		{"Whatever works", false, true}, // "what" is not a word here
		{"", false, false},
		// remarks, chatter and takeovers carry instruction words
		// without telling the agent what to do
		{"I'll run the deploy myself, don't worry about it", false, true},
		{"let me do this one by hand, never mind the script", false, true},
		{"you always use the same flags for this", false, true},
		{"ok", false, true},
		{"stop", false, true}, // a halt says nothing of what not to do
		{"stop running the e2e suite", false, false},
		{"really?", true, false},
		{"no, use pnpm", false, false},
		{"huh, that's what I expected. Use the fixture instead.", false, false},
		// a word of another ("re-use"), a subordinate clause's negation
		// and a sentence adverb are no instruction
		{"Let's keep the two stacks apart. let's make a new module you can re-use the account from", false, true},
		{"Turn on the setting that lets you call helpers even if I dont ask explicitly. Close the last alert.", false, true},
		{"The placeholder must not be written into the file name. Instead the cursor should go where it was.", false, true},
		{"instead, use pnpm", false, false},
		{"never push to main, even if the tests pass", false, false},
		{"We don't want if-else call site selection logic if we can help it", false, false}, // "we can help it" is no takeover
		{"don't commit if the build fails", false, false},
	}
	for _, c := range cases {
		q, f := classifyReason(c.reason)
		if q != c.question || f != c.feedback {
			t.Errorf("classifyReason(%q) = %v, %v; want %v, %v", c.reason, q, f, c.question, c.feedback)
		}
	}
}

func TestWeakScoresLowerAndListsLast(t *testing.T) {
	w := DefaultWeights()
	strong := Candidate{ID: "aaaaaaaaaaaa", Kind: KindRejection, Status: StatusNew, Occurrences: 2, Sessions: []string{"s1", "s2"}, Signals: Signals{UserCorrection: true}}
	weak := strong
	weak.ID, weak.Signals.Feedback, weak.Signals.FixConfirmed = "bbbbbbbbbbbb", true, true
	w.Score(&strong)
	w.Score(&weak)
	// Seen in two sessions: 0.4+0.15+0.1. A weak reason earns no fix
	// bonus: 0.4+0.15+0.1-0.2, below minConfidence.
	if strong.Confidence != 0.65 || weak.Confidence != 0.45 {
		t.Errorf("confidence: strong %v, weak with a confirmed fix %v; want 0.65 and 0.45", strong.Confidence, weak.Confidence)
	}
	weak.Priority = strong.Priority + 3
	s := OpenStore(t.TempDir())
	now := time.Now()
	for _, c := range []Candidate{weak, strong} {
		c.LastSeen = now
		if err := s.write(c); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := s.List(ListOptions{})
	if err != nil || len(cs) != 2 || cs[0].ID != strong.ID {
		t.Errorf("List = %v, %v; want the weak candidate last despite its priority", ids(cs), err)
	}
}

func ids(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

// TestDirection: an instruction in a sentence longer than a rule takes is
// a direction for the task; the rules a team keeps are short.
func TestDirection(t *testing.T) {
	for _, tc := range []struct {
		reason string
		want   bool
	}{
		{"never stash, read the files you need", false},
		{"Never run the migration on prod; use the staging db instead", false},
		{"lets undo the last change to the signup flow. I want the event page to list the signups but marked in red then the signup page for that event to give the warning instead of letting them sign up again for that group which would cause trouble", true},
		{"Will this work in CI? I want to understand it before running it locally, since last time it broke the whole pipeline and we lost a day on it", false}, // no instruction at all
	} {
		if got := direction(tc.reason); got != tc.want {
			t.Errorf("direction(%q) = %v, want %v", tc.reason, got, tc.want)
		}
	}
}
