package scanner

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSummaryIsAWholeSentence(t *testing.T) {
	for _, tt := range []struct{ problem, want string }{
		{"jest runs in watch mode\nwhen it believes the terminal is interactive,\nso npm test never exits. Use CI=true.",
			"jest runs in watch mode when it believes the terminal is interactive, so npm test never exits"},
		{"pytest -s hangs.", "pytest -s hangs"},
		{"Use package.json scripts, e.g. npm run build, not raw node. Then it works.",
			"Use package.json scripts, e.g. npm run build, not raw node"},
		{strings.Repeat("word ", 40), strings.TrimSpace(strings.Repeat("word ", 23)) + "…"},
		{"The migration tool rewrites every table of the schema when it runs twice, which corrupts the " +
			"foreign keys of the billing tables and loses data",
			"The migration tool rewrites every table of the schema when it runs twice"},
	} {
		got := summarize(Candidate{Kind: KindTag, Problem: tt.problem}, "")
		if got != tt.want {
			t.Errorf("summary of %q =\n  %q\nwant\n  %q", tt.problem, got, tt.want)
		}
		if len(got) > maxSummary || !utf8.ValidString(got) {
			t.Errorf("summary %q: %d bytes, valid UTF-8 %v", got, len(got), utf8.ValidString(got))
		}
	}
	if got := shorten(strings.Repeat("é", 100), 20); !utf8.ValidString(got) || len(got) > 20 {
		t.Errorf("shorten of one long word = %q", got)
	}
	// a rejection's reason without a full stop, then the retry the scan
	// added: the summary is the reason alone
	c := Candidate{Kind: KindRejection, Trigger: "git add -A", Solution: "wait, copy the favicon too\nRun `git add -A && git commit` instead."}
	if got := summarize(c, ""); got != "git add: wait, copy the favicon too" {
		t.Errorf("rejection summary = %q", got)
	}
}
