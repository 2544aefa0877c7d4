package engine

import (
	"fmt"
	"slices"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

func TestRelevantNeedsTwoSharedWords(t *testing.T) {
	audit := lesson("audit", lessons.Trigger{Keywords: []string{"npm audit", "audit fix"}})
	audit.Summary = "npm audit fix --force jumps across major versions"
	docker := lesson("docker", lessons.Trigger{Keywords: []string{"docker build", "dockerignore"}})
	docker.Summary = "docker build sends the whole context without a .dockerignore"
	m := compileTest(t, audit, docker)
	for _, tc := range []struct {
		prompt string
		want   []string
	}{
		{"please fix the typo in the README", nil},       // one shared word: noise
		{"the docker build is slow", []string{"docker"}}, // two shared words
		{"run npm audit fix on the web app", []string{"audit"}},
		{"dockerignore", []string{"docker"}}, // a one-word prompt needs one
	} {
		scored, err := m.Relevant(tc.prompt, 0.1, 3)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range scored {
			e, _ := m.Entry(s.Index)
			got = append(got, e.Slug)
		}
		if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
			t.Errorf("Relevant(%q) = %v, want %v", tc.prompt, got, tc.want)
		}
	}
}

// A lesson comes up for words of its keywords or tags, not for words its
// summary shares with any talk; a lesson without keywords anchors on its
// summary. Among many lessons that share a word, that word anchors none.
func TestRelevantAnchors(t *testing.T) {
	chmod := lesson("chmod", lessons.Trigger{Keywords: []string{"chmod", "permission denied"}})
	chmod.Summary = "chmod 777 makes files world-writable and rarely fixes the real problem"
	bare := lesson("bare", lessons.Trigger{})
	bare.Summary = "terraform workspaces share one backend bucket"
	ls := []lessons.Lesson{chmod, bare}
	for i := range 30 {
		l := lesson(fmt.Sprintf("git-%d", i), lessons.Trigger{Keywords: []string{"git", fmt.Sprintf("topic%d", i)}})
		l.Summary = "git does a thing"
		ls = append(ls, l)
	}
	m := compileTest(t, ls...)
	for _, tc := range []struct {
		prompt string
		want   string
	}{
		{"a real-world problem", ""}, // summary words only
		{"permission denied on the uploads folder", "chmod"},
		{"do terraform workspaces share state?", "bare"}, // no keywords: the summary anchors
		{"git does weird things", ""},                    // "git" is in 30 of 32 lessons
		{"git topic7 broke", "git-7"},
	} {
		scored, err := m.Relevant(tc.prompt, 0.1, 3)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(scored) > 0 {
			e, _ := m.Entry(scored[0].Index)
			got = e.Slug
		}
		if got != tc.want {
			t.Errorf("Relevant(%q) = %q first, want %q", tc.prompt, got, tc.want)
		}
	}
}

// Evidence is what the request names: a keyword phrase, two one-word
// keywords, or one in a short request; not a word of a phrase alone, a
// tag, a keyword lost in a long paragraph, or pasted material; and the
// best lesson comes alone unless another names a subject of its own.
func TestRelevantEvidence(t *testing.T) {
	docker := lesson("docker", lessons.Trigger{Keywords: []string{"docker build", "dockerignore", "build context"}})
	docker.Summary = "docker build sends the whole context directory"
	rust := lesson("rust", lessons.Trigger{Keywords: []string{"cargo", "features"}})
	rust.Summary = "feature-gated Rust code is not compiled by a plain cargo test"
	rust.Tags = []string{"lang:rust", "topic:testing"}
	pytest := lesson("pytest", lessons.Trigger{Keywords: []string{"pytest", "hang", "stdin"}})
	pytest.Summary = "pytest with -s can hang waiting for stdin"
	m := compileTest(t, docker, rust, pytest)
	long := "We should rework how the settings page loads its data because the current feature " +
		"loads every section at once and the page feels sluggish for users on slow connections today"
	for _, tc := range []struct {
		prompt string
		want   []string
	}{
		{"shrink the build context", []string{"docker"}}, // phrase
		{"what is the context of this change", nil},      // a word of a phrase alone
		{"run cargo test on it", []string{"rust"}},       // one keyword, short request
		{long, nil},            // one keyword in a paragraph
		{"the rust code", nil}, // a tag word is no evidence
		{"pytest hangs on stdin", []string{"pytest"}},                                              // two keywords
		{"fix the login\n```\ndocker build . hangs\n```\n", nil},                                   // pasted material
		{"Implement the following plan:\n\n# Plan: docker build", nil},                             // the plan after the request
		{"pytest hangs on stdin, and cargo features are not compiled", []string{"pytest", "rust"}}, // two subjects
	} {
		scored, err := m.Relevant(tc.prompt, 0.1, 3)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range scored {
			e, _ := m.Entry(s.Index)
			got = append(got, e.Slug)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("Relevant(%q) = %v, want %v", tc.prompt, got, want)
		}
	}
}
