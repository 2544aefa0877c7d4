package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestPayloadCall(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: src/app.py\n@@ def f():\n-    pass\n+    return g()\n+    # done\n" +
		"*** Add File: /abs/new.py\n+print(1)\n*** Delete File: old.py\n*** End Patch\n"
	tests := []struct {
		name, payload string
		want          Call
	}{
		{"bash", `{"tool_name":"Bash","tool_input":{"command":"ls -la"}}`, Call{Tool: "Bash", Command: "ls -la"}},
		{"codex shell argv", `{"tool_name":"shell","tool_input":{"command":["bash","-lc","make test"]}}`, Call{Tool: "Bash", Command: "make test"}},
		{"codex powershell argv", `{"tool_name":"shell","tool_input":{"command":["pwsh.exe","-NoLogo","-NoProfile","-Command","sed -n '1,20p' a.md"]}}`, Call{Tool: "Bash", Command: "sed -n '1,20p' a.md"}},
		{"codex argv", `{"tool_name":"shell","tool_input":{"command":["git","status"]}}`, Call{Tool: "Bash", Command: "git status"}},
		{"codex exec_command", `{"tool_name":"exec_command","tool_input":{"cmd":"npm test"}}`, Call{Tool: "Bash", Command: "npm test", Background: true}},
		{"codex exec_command one-shot", `{"tool_name":"exec_command","tool_input":{"cmd":"npm test","timeout_ms":10000}}`, Call{Tool: "Bash", Command: "npm test"}},
		{"codex hook's Bash", `{"turn_id":"t1","tool_name":"Bash","tool_input":{"command":"npm run dev"}}`, Call{Tool: "Bash", Command: "npm run dev", Background: true}},
		{"claude background", `{"tool_name":"Bash","tool_input":{"command":"npm run dev","run_in_background":true}}`, Call{Tool: "Bash", Command: "npm run dev", Background: true}},
		{"claude foreground", `{"tool_name":"Bash","tool_input":{"command":"npm run dev","run_in_background":false,"timeout":60000}}`, Call{Tool: "Bash", Command: "npm run dev"}},
		{"gemini background", `{"tool_name":"run_shell_command","tool_input":{"command":"npm run dev","is_background":true}}`, Call{Tool: "Bash", Command: "npm run dev", Background: true}},
		{"relative path", `{"cwd":"/p","tool_name":"Read","tool_input":{"file_path":"a/b.go"}}`, Call{Tool: "Read", Paths: []string{"/p/a/b.go"}}},
		{"windows path", `{"cwd":"C:\\src","tool_name":"Read","tool_input":{"file_path":"C:\\Users\\me\\.claude\\keys.json"}}`,
			Call{Tool: "Read", Paths: []string{"C:/Users/me/.claude/keys.json"}}},
		{"windows network path", `{"cwd":"C:\\src","tool_name":"Read","tool_input":{"file_path":"\\\\nas\\share\\a.txt"}}`,
			Call{Tool: "Read", Paths: []string{"//nas/share/a.txt"}}},
		{"windows relative path", `{"cwd":"C:\\src\\app","tool_name":"Edit","tool_input":{"file_path":"lib\\a.cs","new_string":"x"}}`,
			Call{Tool: "Edit", Paths: []string{"C:/src/app/lib/a.cs"}, Contents: []string{"x"}}},
		{"edit", `{"tool_name":"Edit","tool_input":{"file_path":"/a.py","old_string":"x","new_string":"y"}}`,
			Call{Tool: "Edit", Paths: []string{"/a.py"}, Contents: []string{"y"}}},
		{"multiedit", `{"tool_name":"MultiEdit","tool_input":{"file_path":"/a.py","edits":[{"new_string":"1"},{"new_string":"2"}]}}`,
			Call{Tool: "MultiEdit", Paths: []string{"/a.py"}, Contents: []string{"1", "2"}}},
		{"notebook", `{"tool_name":"NotebookEdit","tool_input":{"notebook_path":"/n.ipynb","new_source":"!pip"}}`,
			Call{Tool: "NotebookEdit", Paths: []string{"/n.ipynb"}, Contents: []string{"!pip"}}},
		{"grep", `{"tool_name":"Grep","tool_input":{"pattern":"x","path":"/src"}}`, Call{Tool: "Grep", Paths: []string{"/src"}}},
		{"apply_patch", `{"cwd":"/p","tool_name":"apply_patch","tool_input":{"command":` + quote(patch) + `}}`,
			Call{Tool: "Edit", Paths: []string{"/p/src/app.py", "/abs/new.py", "/p/old.py"}, Contents: []string{"    return g()\n    # done", "print(1)"}}},
		{"apply_patch adds only", `{"cwd":"/p","tool_name":"apply_patch","tool_input":{"command":` + quote("*** Begin Patch\n*** Add File: n.md\n+# T\n*** End Patch") + `}}`,
			Call{Tool: "Write", Paths: []string{"/p/n.md"}, Contents: []string{"# T"}}},
		{"apply_patch via shell", `{"cwd":"/p","tool_name":"Bash","tool_input":{"command":` + quote("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.md\n+x\n*** End Patch\nEOF") + `}}`,
			Call{Tool: "Write", Paths: []string{"/p/n.md"}, Contents: []string{"x"}}},
		{"mcp", `{"tool_name":"mcp__github__get_issue","tool_input":{"number":3}}`, Call{Tool: "mcp__github__get_issue"}},
	}
	for _, tt := range tests {
		var p Payload
		if err := json.Unmarshal([]byte(tt.payload), &p); err != nil {
			t.Fatal(err)
		}
		got, err := p.Call()
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Call() = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Gemini CLI escapes < and >, so its text carries no HTML comment.
func TestGeminiTextHasNoHTMLComment(t *testing.T) {
	text := "1 lesson for this Bash call\n\n## Lesson: x\n\n<!-- lessons injected: a, b; dropped: c -->"
	out := Platforms["gemini"].Context("AfterTool", text).(geminiOutput)
	got := out.Specific.AdditionalContext
	if strings.Contains(got, "<!--") || !strings.HasSuffix(got, "\n[lessons injected: a, b; dropped: c]") {
		t.Errorf("gemini text ends %q", got[strings.LastIndexByte(got, '\n'):])
	}
}
