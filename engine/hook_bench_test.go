package engine

import (
	"bytes"
	"fmt"
	"io"
	"testing"
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
