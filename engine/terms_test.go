package engine

import (
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		// Plurals and tenses meet their lesson's words.
		{"pytest hangs when I run the tests", []string{"pytest", "hang", "test"}},
		{"the tests are hanging", []string{"test", "hang"}},
		// Requests' verbs and fillers are no evidence.
		{"run the tests, then have a subagent run them too", []string{"test", "subag"}},
		{"please make sure you use it, then check again", nil},
		{"I'm trying, it tries, they tried", nil},
		{"Can you update these and create the other?", nil},
		// Words that name tools stay, whatever their case.
		{"go test ./... and npm ci", []string{"go", "test", "npm", "ci"}},
		{"DockerIgnore", []string{"dockerignor"}},
	} {
		if got := tokenize(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
