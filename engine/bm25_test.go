package engine

import (
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
