package engine

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/lessons-dev/lessons/scope"
)

// BenchmarkHook runs a whole PreToolUse answer in-process, from payload
// to JSON, on a 1,000-lesson manifest: what the hook adds to Go's
// start-up.
func BenchmarkHook(b *testing.B) {
	h, project := benchHook(b)
	payload := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash",`+
		`"tool_input":{"command":"git push origin feature-branch && npm run build -- --watch=false"}}`, project))
	for b.Loop() {
		h.Run(bytes.NewReader(payload), io.Discard)
	}
}

// BenchmarkHookPrompt answers a UserPromptSubmit in-process on the same
// 1,000-lesson manifest.
func BenchmarkHookPrompt(b *testing.B) {
	h, project := benchHook(b)
	// One session: after the first answer its lessons are claimed, so the
	// loop measures reading, tokenizing, stemming and scoring the prompt,
	// not writing claim files.
	payload := []byte(fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"UserPromptSubmit",`+
		`"prompt":"pytest hangs when I run the tests, and the docker build is slow: can you shrink the build context and fix the flaky test?"}`, project))
	for b.Loop() {
		h.Run(bytes.NewReader(payload), io.Discard)
	}
}

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
