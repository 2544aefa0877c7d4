package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
// 1,000-lesson manifest, with prompt-time lessons on: a short request,
// and a 4 KB bug report whose traceback and environment the hook strips.
func BenchmarkHookPrompt(b *testing.B) {
	h, project := benchHook(b)
	getenv := h.Getenv
	h.Getenv = func(k string) string {
		if k == "LESSONS_PROMPT_LESSONS" {
			return "on"
		}
		return getenv(k)
	}
	report := "the docker build is slow and pytest hangs in CI, can you shrink the build context?\n\n## Traceback\n" +
		strings.Repeat("  File /app/src/module.py, line 12, in handler: raise RuntimeError(npm install failed)\n", 40) +
		"\n## Environment\n" + strings.Repeat("package==1.0.0 pip freeze git stash kubectl apply\n", 12)
	for name, prompt := range map[string]string{
		"short": "pytest hangs when I run the tests, and the docker build is slow: can you shrink the build context and fix the flaky test?",
		"4KB":   report,
	} {
		// One session: after the first answer its lessons are claimed,
		// so the loop measures reading, stripping and scoring the
		// prompt, not writing claim files.
		payload, _ := json.Marshal(map[string]string{"session_id": "bench-" + name, "cwd": project, "hook_event_name": "UserPromptSubmit", "prompt": prompt})
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				h.Run(bytes.NewReader(payload), io.Discard)
			}
		})
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
