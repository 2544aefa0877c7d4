package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lessons-dev/lessons/scope"
)

// benchHook writes a 1,000-lesson manifest for a project and returns a
// hook on it and the project.
func benchHook(b *testing.B) (*Hook, string) {
	root := b.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, ".lessons"), 0o755); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"HOME": root, "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state"}
	getenv := func(k string) string { return env[k] }
	mg := merged(syntheticLessons(1000)...)
	mg.Project = project
	m, err := Compile(mg, scope.Stamp{})
	if err != nil {
		b.Fatal(err)
	}
	if err := m.WriteManifest(scope.DefaultDirs(getenv).ManifestPath(project)); err != nil {
		b.Fatal(err)
	}
	return &Hook{Getenv: getenv}, project
}

// BenchmarkHookOutcome runs outcome events in-process: a success with no
// failure on record (every call pays it), next to a PreToolUse that
// matches no lesson; and a failure, which opens the manifest to check
// that no lesson covers it, and writes its record.
func BenchmarkHookOutcome(b *testing.B) {
	h, project := benchHook(b)
	const cmd = "go test ./internal/... -run TestParse -count 1"
	pre := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q}}`, project, cmd))
	post := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":%q},`+
		`"tool_response":{"stdout":"ok  example.com/app/internal/parse 0.01s","stderr":"","interrupted":false}}`, project, cmd))
	fail := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":%q},`+
		`"error":"Exit code 1\n--- FAIL: TestParse (0.00s)"}`, project, cmd))
	for _, c := range []struct {
		name    string
		payload []byte
	}{{"PreToolUse-nomatch", pre}, {"PostToolUse-success", post}, {"PostToolUseFailure", fail}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				var out bytes.Buffer
				h.Run(bytes.NewReader(c.payload), &out)
				if out.String() != "{}\n" {
					b.Fatalf("answer %s", out.String())
				}
			}
		})
	}
}
