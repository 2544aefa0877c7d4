package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// samePayload checks that decodePayload and encoding/json agree on
// data: the same Payload, the same error.
func samePayload(t *testing.T, data []byte) {
	t.Helper()
	var got, want Payload
	gerr, werr := decodePayload(data, &got), json.Unmarshal(data, &want)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("%q: error %v, encoding/json %v", data, gerr, werr)
	}
	if !reflect.DeepEqual(normRaw(got), normRaw(want)) {
		t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
	}
	if gerr == nil {
		for _, raw := range []json.RawMessage{want.ToolInput, want.ToolResponse, want.Error} {
			sameToolInput(t, raw)
		}
	}
}

// sameToolInput checks decodeToolInput and jsonString against
// encoding/json on a tool_input, and on its command.
func sameToolInput(t *testing.T, raw json.RawMessage) {
	t.Helper()
	var got, want toolInput
	gerr, werr := decodeToolInput(raw, &got), json.Unmarshal(raw, &want)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("tool_input %q: error %v, encoding/json %v", raw, gerr, werr)
	}
	got.Command, want.Command = normOne(got.Command), normOne(want.Command)
	got.Cmd, want.Cmd = normOne(got.Cmd), normOne(want.Cmd)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tool_input %q:\n got %+v\nwant %+v", raw, got, want)
	}
	for _, r := range []json.RawMessage{raw, want.Command, want.Cmd} {
		var ws string
		werr := json.Unmarshal(r, &ws)
		if gs, ok := jsonString(r); ok != (werr == nil) || gs != ws {
			t.Fatalf("string %q: %q %v, encoding/json %q %v", r, gs, ok, ws, werr)
		}
	}
}

func normOne(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	return m
}

// normRaw makes an empty RawMessage and a nil one alike: encoding/json
// copies into a fresh slice, the plain decoder slices the payload.
func normRaw(p Payload) Payload {
	for _, f := range []*json.RawMessage{&p.ToolInput, &p.ToolResponse, &p.Error} {
		if len(*f) == 0 {
			*f = nil
		}
	}
	return p
}

// TestPlainDecoderAgreesWithEncodingJSON: on every payload in
// testdata/hooks and on payloads built to take each turn the plain
// decoder leaves to encoding/json, decodePayload and Call give what
// encoding/json gives.
func TestPlainDecoderAgreesWithEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob("../testdata/hooks/*.json")
	if len(files) < 20 {
		t.Fatalf("%d payloads in testdata/hooks", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		samePayload(t, data)
	}
	for _, s := range plainDecoderCases {
		samePayload(t, []byte(s))
	}
}

// TestPlainDecoderTakesAgentsPayloads: the payloads agents send (all of
// testdata/hooks but Antigravity CLI's and the lists) take the plain
// decoder, or the hook pays encoding/json's first use after all.
func TestPlainDecoderTakesAgentsPayloads(t *testing.T) {
	files, _ := filepath.Glob("../testdata/hooks/*.json")
	plain := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		var p Payload
		var in toolInput
		switch {
		case strings.HasPrefix(filepath.Base(f), "antigravity-"), strings.Contains(string(data), `"edits":`),
			strings.Contains(string(data), `"paths":`):
		case !plainPayload(data, &p):
			t.Errorf("%s: the payload went to encoding/json", f)
		case len(p.ToolInput) > 0 && string(p.ToolInput) != "null" && !plainToolInput(p.ToolInput, &in):
			t.Errorf("%s: its tool_input went to encoding/json", f)
		default:
			plain++
		}
	}
	if plain < len(files)/2 {
		t.Errorf("%d of %d payloads took the plain decoder", plain, len(files))
	}
}

var plainDecoderCases = []string{
	`{}`, ` { } `, `[]`, `null`, `"x"`, ``, `{`, `{"a":1,}`, `{"a" 1}`, `{} {}`, `{}x`,
	`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"}}`,
	`{"tool_name":"Bash","tool_input":{"command":["bash","-lc","make test"]}}`,
	`{"tool_name":"Bash","tool_input":{"cmd":"git status","command":null}}`,
	`{"tool_name":"Bash","tool_input":{"command":"a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20ac\u0000"}}`,
	`{"tool_name":"Bash","tool_input":{"command":"\ud83d\ude00 pair"}}`,
	`{"tool_name":"Bash","tool_input":{"command":"\ud83d lone"}}`,
	`{"tool_name":"Bash","tool_input":{"command":"bad \x escape"}}`,
	"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"raw \x01 control\"}}",
	"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"bad utf-8 \xff\xfe\"}}",
	"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"\\n\xff\"}}",
	`{"session_id":"a","session_id":"b"}`,
	`{"Session_ID":"folded","cwd":"/p"}`,
	`{"TOOL_NAME":"Bash"}`,
	"{\"tool_name\":\"Bash\",\"tool_input\":{\"\u212aommand\":\"kelvin\"}}",
	`{"session_id":null,"cwd":"/p"}`,
	`{"session_id":1}`,
	`{"is_interrupt":true,"error":"Exit code 1\nboom"}`,
	`{"is_interrupt":"yes"}`,
	`{"is_interrupt":null}`,
	`{"error":{"message":"tool error","type":"x"},"tool_response":[1,2.5,-0.1e+3,true,false,null,{"a":[]}]}`,
	`{"tool_response":01}`, `{"tool_response":1.}`, `{"tool_response":-}`, `{"tool_response":1e}`, `{"tool_response":tru}`,
	`{"tool_input":null,"tool_name":"Read"}`,
	`{"tool_name":"Edit","tool_input":{"file_path":"src/a.go","old_string":"x","new_string":"y"},"cwd":"/proj"}`,
	`{"tool_name":"MultiEdit","tool_input":{"file_path":"/a","edits":[{"new_string":"n1"},{"newString":"n2"}]}}`,
	`{"tool_name":"read_many_files","tool_input":{"paths":["a","/b"]},"cwd":"/p"}`,
	`{"tool_name":"Write","tool_input":{"filePath":"/a","content":"c","unknown":{"deep":[[[]]]}}}`,
	`{"tool_name":"apply_patch","tool_input":{"patchText":"*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch"}}`,
	`{"conversationId":"c1","workspacePaths":["/w"],"toolCall":{"name":"run_command","args":{"CommandLine":"ls"}}}`,
	`{"toolcall":{"name":"x"}}`,
	`{"unknown":"field","other":[1,{"x":"y"}],"session_id":"s"}`,
	`{"tool_input":{"command":1}}`,
	`{"tool_input":{"file_path":1}}`,
	`{"tool_input":"not an object"}`,
	`{"tool_input":{"command":"x"}` + strings.Repeat(" ", 3) + `}`,
	`{"tool_response":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
	`{"tool_response":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
}

// FuzzPlainDecoder holds decodePayload to encoding/json on any input.
func FuzzPlainDecoder(f *testing.F) {
	for _, s := range plainDecoderCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		samePayload(t, data)
	})
}

// TestNoOutputIsWhatTheEncoderWrites: the empty answer written without
// the encoder is byte for byte the encoder's.
func TestNoOutputIsWhatTheEncoderWrites(t *testing.T) {
	var got, want strings.Builder
	if err := writeOutput(&got, noOutput); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(noOutput); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("writeOutput(noOutput) = %q, the encoder %q", got.String(), want.String())
	}
}
