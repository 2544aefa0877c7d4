package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/lessons-dev/lessons/scope"
)

// FuzzHook runs whole hook calls in-process, payload to answer, for
// every platform and event, on a 200-lesson manifest: whatever the
// payload, the answer is one JSON object on one line, and nothing
// panics (Run recovers a panic into the hook log, which is checked).
func FuzzHook(f *testing.F) {
	root := f.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, ".lessons"), 0o755); err != nil {
		f.Fatal(err)
	}
	env := map[string]string{"HOME": root, "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state"}
	getenv := func(k string) string { return env[k] }
	mg := merged(syntheticLessons(200)...)
	mg.Project = project
	m, err := Compile(mg, scope.Stamp{})
	if err != nil {
		f.Fatal(err)
	}
	dirs := scope.DefaultDirs(getenv)
	if err := m.WriteManifest(dirs.ManifestPath(project)); err != nil {
		f.Fatal(err)
	}
	var names []string
	for name := range Platforms {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, seed := range []string{
		`{"session_id":"s","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`,
		`{"session_id":"s","cwd":%q,"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"npm run build"}}`,
		`{"session_id":"s","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test"},"tool_response":{"exit_code":1,"stderr":"FAIL"}}`,
		`{"session_id":"s","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt":"docker build is slow"}`,
		`{"session_id":"s","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`,
		`{"conversationId":"s","cwd":%q,"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf $X"}}}`,
		`{"sessionID":"s","directory":%q,"tool":"bash","args":{"command":"pytest"}}`,
	} {
		for i := range names {
			f.Add(uint8(i), "", []byte(fmt.Sprintf(seed, project)))
		}
	}
	f.Add(uint8(0), "PreInvocation", []byte(`{"a":[[[[{}]]]],"tool_input":{"command":42}}`))
	f.Fuzz(func(t *testing.T, pf uint8, event string, payload []byte) {
		os.Remove(HookLogPath(dirs.State))
		h := &Hook{Platform: Platforms[names[int(pf)%len(names)]], Event: event, Getenv: getenv}
		var out bytes.Buffer
		h.Run(bytes.NewReader(payload), &out)
		var v map[string]any
		if bytes.Count(out.Bytes(), []byte("\n")) != 1 || json.Unmarshal(out.Bytes(), &v) != nil || v == nil {
			t.Fatalf("%s hook on %q answered %q, want one JSON object", names[int(pf)%len(names)], payload, out.Bytes())
		}
		if log, _ := os.ReadFile(HookLogPath(dirs.State)); bytes.Contains(log, []byte("panic")) {
			t.Fatalf("%s hook on %q panicked: %s", names[int(pf)%len(names)], payload, log)
		}
	})
}
