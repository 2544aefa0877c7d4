package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lessons-dev/lessons/scope"
)

// BenchmarkHookOutcomeErrors runs outcome events in-process on the
// 1,000-lesson manifest plus 100 lessons on an error: a success (which
// must not open the manifest), a failure no lesson's error matches, and
// one a lesson's error matches, each in a new session so the lesson is
// given every time.
func BenchmarkHookOutcomeErrors(b *testing.B) {
	root := b.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, ".lessons"), 0o755); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"HOME": root, "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state"}
	getenv := func(k string) string { return env[k] }
	mg := merged(append(syntheticLessons(1000), syntheticErrorLessons(100)...)...)
	mg.Project = project
	m, err := Compile(mg, scope.Stamp{})
	if err != nil {
		b.Fatal(err)
	}
	if err := m.WriteManifest(scope.DefaultDirs(getenv).ManifestPath(project)); err != nil {
		b.Fatal(err)
	}
	h := &Hook{Getenv: getenv}
	const cmd = "go test ./internal/... -run TestParse -count 1"
	post := fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":%q},`+
		`"tool_response":{"stdout":"ok  example.com/app/internal/parse 0.01s","stderr":"","interrupted":false}}`, project, cmd)
	fail := fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":%q},`+
		`"error":"Exit code 1\n--- FAIL: TestParse (0.00s)"}`, project, cmd)
	session := 0 // b.Run calls a benchmark more than once: sessions go on counting
	for _, c := range []struct {
		name, payload string
		answers       bool
	}{
		{"PostToolUse-success", post, false},
		{"PostToolUseFailure-nomatch", fail, false},
		{"PostToolUseFailure-match", `{"session_id":"bench-%d","cwd":%q,"hook_event_name":"PostToolUseFailure","tool_name":"Bash",` +
			`"tool_input":{"command":"python x.py"},"error":"Exit code 1\nError: listen EADDRINUSE: address already in use :::3000 (case1)"}`, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				payload := c.payload
				if c.answers {
					session++
					payload = fmt.Sprintf(c.payload, session, project)
				}
				var out bytes.Buffer
				h.Run(bytes.NewReader([]byte(payload)), &out)
				if got := out.String() != "{}\n"; got != c.answers {
					b.Fatalf("answer %s", out.String())
				}
			}
		})
	}
}
