package agents

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Antigravity CLI's hooks.json groups hooks by name: lessons adds one
// named hook, with a matcher group for PreToolUse ("" for every tool)
// and a flat handler for PreInvocation, each naming its event on the
// command line, since agy's payloads do not.
func TestAntigravityNewFile(t *testing.T) {
	a := Agents["antigravity"]
	got, err := a.AddHooks(nil, "/opt/lessons/bin/lessons")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "lessons": {
    "PreToolUse": [
      {
        "matcher": "",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/lessons/bin/lessons hook --platform antigravity --event PreToolUse",
            "timeout": 10
          }
        ]
      }
    ],
    "PreInvocation": [
      {
        "type": "command",
        "command": "/opt/lessons/bin/lessons hook --platform antigravity --event PreInvocation",
        "timeout": 10
      }
    ]
  }
}
`
	if string(got) != want {
		t.Errorf("AddHooks on a new file:\n%s\nwant:\n%s", got, want)
	}
	events, commands, err := a.Installed(got)
	if err != nil || strings.Join(events, ",") != "PreToolUse,PreInvocation" || len(commands) != 2 {
		t.Errorf("Installed = %v %v %v", events, commands, err)
	}
}

// Other named hooks keep their bytes, a second install changes nothing,
// a moved binary replaces lessons' hook, and uninstalling restores the
// file exactly.
func TestAntigravityRoundTrip(t *testing.T) {
	a := Agents["antigravity"]
	orig, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "agents", "antigravity-hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := a.AddHooks(orig, "/usr/bin/lessons")
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(in) || !bytes.HasPrefix(in, orig[:len(orig)-3]) {
		t.Fatalf("install is not strict JSON ending the original:\n%s", in)
	}
	if again, _ := a.AddHooks(in, "/usr/bin/lessons"); !bytes.Equal(again, in) {
		t.Error("a second install changed the file")
	}
	moved, err := a.AddHooks(in, "/usr/local/bin/lessons")
	if err != nil || bytes.Contains(moved, []byte("/usr/bin/lessons")) || !bytes.Contains(moved, []byte("/usr/local/bin/lessons hook")) {
		t.Errorf("install from another binary:\n%s (%v)", moved, err)
	}
	out, removed, err := a.RemoveHooks(moved, orig)
	if err != nil || !removed || !bytes.Equal(out, orig) {
		t.Errorf("uninstall: removed %v, %v:\n%s", removed, err, out)
	}
	if _, removed, _ := a.RemoveHooks(orig, nil); removed {
		t.Error("uninstall removed something from a file without lessons")
	}
}

// A hook someone else named "lessons" is not lessons': install refuses
// to overwrite it, uninstall leaves it.
func TestAntigravityForeignHookName(t *testing.T) {
	a := Agents["antigravity"]
	src := []byte(`{"lessons": {"Stop": [{"type": "command", "command": "./notes.sh"}]}}` + "\n")
	if _, err := a.AddHooks(src, "/usr/bin/lessons"); err == nil || !strings.Contains(err.Error(), "does not run lessons") {
		t.Errorf("install over a foreign hook named lessons: %v", err)
	}
	if out, removed, err := a.RemoveHooks(src, nil); removed || err != nil || !bytes.Equal(out, src) {
		t.Errorf("uninstall touched a foreign hook: %v %v", removed, err)
	}
}

// Install writes where Google documents the file and where integrators
// found agy reading it, at each level.
func TestAntigravityPaths(t *testing.T) {
	a := Agents["antigravity"]
	env := Env{Home: "/home/u"}
	if got := strings.Join(a.Paths(env, ""), " "); got != "/home/u/.gemini/config/hooks.json /home/u/.gemini/antigravity-cli/hooks.json" {
		t.Errorf("user paths %s", got)
	}
	if got := strings.Join(a.Paths(env, "/src/p"), " "); got != "/src/p/.agents/hooks.json /src/p/.antigravitycli/hooks.json" {
		t.Errorf("project paths %s", got)
	}
}
