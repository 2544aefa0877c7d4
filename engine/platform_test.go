package engine

import (
	"strings"
	"testing"
)

// TestGeminiContextReadsAfterEscaping: Gemini CLI turns < and > in hook
// text into &lt; and &gt;; the text it gets has no HTML comment, and a
// text with either sign says what the entities stand for.
func TestGeminiContextReadsAfterEscaping(t *testing.T) {
	for _, tt := range []struct {
		text     string
		wantNote bool
	}{
		{"1 lesson\n\nRun `cmd < /dev/null`.\n\n<!-- lessons injected: a -->", true},
		{"1 lesson\n\nRun `cmd 2>&1`.\n\n<!-- lessons injected: a -->", true},
		{"1 lesson\n\nRun `cmd` alone.\n\n<!-- lessons injected: a -->", false},
	} {
		got := geminiPlatform{}.Context("AfterTool", tt.text).(geminiOutput).Specific.AdditionalContext
		escaped := strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(got)
		if strings.Contains(escaped, "&lt;!--") || !strings.Contains(got, "[lessons injected: a]") {
			t.Errorf("Context(%q) = %q: the marker is not a plain line", tt.text, got)
		}
		if hasNote := strings.Contains(escaped, "&lt; stands for the less-than sign"); hasNote != tt.wantNote {
			t.Errorf("Context(%q) = %q: note %v, want %v", tt.text, got, hasNote, tt.wantNote)
		}
		if strings.ContainsAny(geminiEscapeNote, "<>") {
			t.Error("the note holds a sign Gemini CLI escapes")
		}
	}
}

// Nudges are logged per agent under the name platformName gives.
func TestPlatformName(t *testing.T) {
	for name, pf := range Platforms {
		if got := platformName(pf); got != name {
			t.Errorf("platformName(Platforms[%q]) = %q", name, got)
		}
	}
	if got := platformName(nil); got != "" {
		t.Errorf("platformName(nil) = %q, want \"\"", got)
	}
}
