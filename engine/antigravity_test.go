package engine

import (
	"encoding/json"
	"slices"
	"testing"
)

// Antigravity CLI's payloads become the calls triggers see, whatever the
// case of their argument keys, and are recognised by their shape.
func TestAntigravityPayload(t *testing.T) {
	for _, tc := range []struct {
		payload         string
		tool, command   string
		paths, contents []string
	}{
		{`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"run_command","args":{"CommandLine":"pytest -s","Cwd":"/w","Blocking":true}}}`,
			"Bash", "pytest -s", nil, nil},
		{`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"run_command","args":{"commandLine":"ls"}}}`,
			"Bash", "ls", nil, nil},
		{`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"view_file","args":{"AbsolutePath":"/w/.env","StartLine":1}}}`,
			"Read", "", []string{"/w/.env"}, nil},
		{`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"write_to_file","args":{"TargetFile":"src/a.py","CodeContent":"x = 1\n"}}}`,
			"Write", "", []string{"/w/src/a.py"}, []string{"x = 1\n"}},
		{`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"replace_file_content","args":{"TargetFile":"/w/a.ts","TargetContent":"a","ReplacementContent":"fetch(u)"}}}`,
			"Edit", "", []string{"/w/a.ts"}, []string{"fetch(u)"}},
		{`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"multi_replace_file_content","args":{"TargetFile":"/w/a.ts","ReplacementChunks":[{"TargetContent":"a","ReplacementContent":"one"},{"ReplacementContent":"two"}]}}}`,
			"MultiEdit", "", []string{"/w/a.ts"}, []string{"one", "two"}},
		{`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"grep_search","args":{"SearchPath":"/w/node_modules","Query":"x"}}}`,
			"Grep", "", []string{"/w/node_modules"}, nil},
	} {
		var p Payload
		if err := json.Unmarshal([]byte(tc.payload), &p); err != nil {
			t.Fatalf("%s: %v", tc.payload, err)
		}
		if got := p.Recognise(); got != "antigravity" {
			t.Errorf("Recognise(%s) = %s", tc.payload, got)
		}
		if p.SessionID != "c" || p.Cwd != "/w" {
			t.Errorf("%s: session %q, cwd %q", tc.payload, p.SessionID, p.Cwd)
		}
		c, err := p.Call()
		if err != nil {
			t.Fatal(err)
		}
		if c.Tool != tc.tool || c.Command != tc.command || !slices.Equal(c.Paths, tc.paths) || !slices.Equal(c.Contents, tc.contents) {
			t.Errorf("Call(%s) = %+v, want %s %q %v %v", tc.payload, c, tc.tool, tc.command, tc.paths, tc.contents)
		}
	}
	var claude Payload
	if err := json.Unmarshal([]byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), &claude); err != nil {
		t.Fatal(err)
	}
	if got := claude.Recognise(); got != DefaultPlatform {
		t.Errorf("a Claude Code payload is recognised as %s", got)
	}
	var bad Payload
	if err := json.Unmarshal([]byte(`{"conversationId":"c","toolCall":{"name":"run_command","args":"ls"}}`), &bad); err == nil {
		t.Error("toolCall.args that is no object decodes")
	}
}
