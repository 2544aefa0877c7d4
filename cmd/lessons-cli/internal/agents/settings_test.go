package agents

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testBin = "/opt/lessons/bin/lessons"

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "agents", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// unrelated maps every part of a settings file that is not lessons' to
// its exact bytes: each top-level member but hooks, each member of hooks
// that is not an event list, and each entry of every event list.
func unrelated(t *testing.T, src []byte) map[string]string {
	t.Helper()
	root, err := parseJSON(src)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range root.members {
		if m.key != "hooks" {
			out[m.key] = string(src[m.keyStart:m.val.end])
			continue
		}
		for _, h := range m.val.members {
			if h.val.kind != '[' {
				out["hooks."+h.key] = string(src[h.keyStart:h.val.end])
				continue
			}
			for _, e := range h.val.elems {
				text := string(src[e.start:e.end])
				if !strings.Contains(text, "lessons hook") {
					out["hooks."+h.key+"/"+text] = text
				}
			}
		}
	}
	return out
}

var roundTrips = []struct {
	agent, file string
}{
	{"claude", "claude-settings.json"},
	{"claude", "claude-settings-tabs.json"},
	{"claude", "claude-settings-compact.json"},
	{"codex", "codex-hooks.json"},
	{"gemini", "gemini-settings.json"},
	{"claude", "codex-hooks.json"},
	{"gemini", "claude-settings.json"},
}

func TestRoundTrip(t *testing.T) {
	for _, tt := range roundTrips {
		t.Run(tt.agent+"/"+tt.file, func(t *testing.T) {
			a := Agents[tt.agent]
			orig := fixture(t, tt.file)
			installed, err := a.AddHooks(orig, testBin)
			if err != nil {
				t.Fatal(err)
			}
			events, commands, err := a.Installed(installed)
			if err != nil {
				t.Fatal(err)
			}
			if len(events) != len(a.Events) {
				t.Errorf("installed events %v, want all of %v", events, a.Events)
			}
			for _, c := range commands {
				if c != testBin+" hook --platform "+tt.agent {
					t.Errorf("command %q", c)
				}
			}
			before, after := unrelated(t, orig), unrelated(t, installed)
			for k, v := range before {
				if after[k] != v {
					t.Errorf("install changed %s:\n was: %s\n now: %s", k, v, after[k])
				}
			}
			if len(after) != len(before) {
				t.Errorf("install added unrelated parts: %d, was %d", len(after), len(before))
			}
			again, err := a.AddHooks(installed, testBin)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, installed) {
				t.Errorf("second install changed the file:\n%s", unifiedDiff("a", "b", string(installed), string(again)))
			}
			removed, ok, err := a.RemoveHooks(installed, orig)
			if err != nil || !ok {
				t.Fatalf("RemoveHooks = %v, %v", ok, err)
			}
			if !bytes.Equal(removed, orig) {
				t.Errorf("uninstall did not restore the file:\n%s", unifiedDiff("orig", "restored", string(orig), string(removed)))
			}
		})
	}
}

func TestAddHooksLayout(t *testing.T) {
	got, err := Agents["gemini"].AddHooks(fixture(t, "gemini-settings.json"), testBin)
	if err != nil {
		t.Fatal(err)
	}
	want := `        "BeforeTool": [
            {
                "matcher": "write_file|replace",
                "hooks": [
                    {
                        "name": "secret-scanner",
                        "type": "command",
                        "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/block-secrets.sh",
                        "description": "Prevent committing secrets",
                        "timeout": 5000
                    }
                ]
            },
            {
                "matcher": "*",
                "hooks": [
                    {
                        "name": "lessons-beforetool",
                        "type": "command",
                        "command": "/opt/lessons/bin/lessons hook --platform gemini",
                        "timeout": 10000
                    }
                ]
            }
        ],`
	if !strings.Contains(string(got), want) {
		t.Errorf("gemini BeforeTool list laid out as:\n%s", got)
	}
	if !strings.Contains(string(got), "// Gemini CLI strips comments") || !strings.Contains(string(got), "/* our team's hooks */") {
		t.Error("comments were lost")
	}
}

func TestAddHooksNewFile(t *testing.T) {
	got, err := Agents["claude"].AddHooks(nil, testBin)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/lessons/bin/lessons hook --platform claude",
            "timeout": 10
          }
        ]
      }
    ],
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/lessons/bin/lessons hook --platform claude",
            "timeout": 10
          }
        ]
      }
    ],
`
	if !strings.HasPrefix(string(got), want) {
		t.Errorf("new settings file:\n%s", got)
	}
	removed, _, err := Agents["claude"].RemoveHooks(got, nil)
	if err != nil || string(removed) != "{}\n" {
		t.Errorf("RemoveHooks = %q, %v; want {}", removed, err)
	}
}

func TestAddHooksReplacesStaleEntry(t *testing.T) {
	a := Agents["codex"]
	orig := fixture(t, "codex-hooks.json")
	old, err := a.AddHooks(orig, "/old/place/lessons")
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.AddHooks(old, testBin)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "/old/place") || strings.Count(string(got), testBin) != len(a.Events) {
		t.Errorf("stale entries not replaced:\n%s", got)
	}
	removed, _, _ := a.RemoveHooks(got, orig)
	if !bytes.Equal(removed, orig) {
		t.Errorf("uninstall after a reinstall:\n%s", unifiedDiff("orig", "restored", string(orig), string(removed)))
	}
}

func TestRemoveHooksFromSharedGroup(t *testing.T) {
	src := []byte(`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
  {"type": "command", "command": "audit.sh"},
  {"type": "command", "command": "'/home/me/my tools/lessons' hook"}
]}]}}`)
	got, ok, err := Agents["claude"].RemoveHooks(src, src)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	want := `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
  {"type": "command", "command": "audit.sh"}
]}]}}`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestIsOurs(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want bool
	}{
		{"/usr/local/bin/lessons hook --platform claude", true},
		{"lessons hook", true},
		{`'/home/me/my tools/lessons' hook --platform codex`, true},
		{`'/home/it'\''s/lessons' hook`, true},
		{`"/opt/x y/lessons" hook`, true},
		{"/usr/local/bin/lessons-cli hook", false},
		{"/usr/local/bin/lessons build", false},
		{"python3 lessons hook.py", false},
		{"echo lessons hook", false},
		{`C:/Users/me/bin/lessons.exe hook --platform gemini`, true},
		{`"C:/Program Files/lessons/LESSONS.EXE" hook`, true},
		{`C:/Users/me/bin/lessons-cli.exe hook`, false},
	} {
		if got := isOurs(tt.cmd); got != tt.want {
			t.Errorf("isOurs(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
	for _, bin := range []string{"/a/b/lessons", "/a b/lessons", "/it's/lessons"} {
		if got, hook := commandBinary(Agents["claude"].Command(bin)); got != bin || !hook {
			t.Errorf("commandBinary(Command(%q)) = %q, %v", bin, got, hook)
		}
	}
}

// On Windows the hook's command line may run under cmd.exe, which has no
// single quotes: paths get forward slashes and double quotes.
func TestQuoteProgramWindows(t *testing.T) {
	for _, tt := range []struct{ bin, want string }{
		{`C:\Users\me\bin\lessons.exe`, `C:/Users/me/bin/lessons.exe`},
		{`C:\Program Files\lessons\lessons.exe`, `"C:/Program Files/lessons/lessons.exe"`},
		{`/a b/lessons`, `'/a b/lessons'`},
	} {
		goos := "windows"
		if !strings.Contains(tt.bin, `\`) {
			goos = "linux"
		}
		got := quoteProgram(goos, tt.bin)
		if got != tt.want {
			t.Errorf("quoteProgram(%s, %q) = %s, want %s", goos, tt.bin, got, tt.want)
		}
		if bin, hook := commandBinary(got + " hook --platform claude"); !hook || !isOurs(got+" hook") || strings.Trim(got, `"'`) != bin {
			t.Errorf("commandBinary(%s hook) = %q, %v", got, bin, hook)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{`{"a": }`, `[1, 2]`, `{"a": 1} x`, `{"a": "b`, `{/* x`} {
		if _, err := Agents["claude"].AddHooks([]byte(src), testBin); err == nil {
			t.Errorf("AddHooks(%q) succeeded", src)
		}
	}
	if _, err := Agents["claude"].AddHooks([]byte(`{"hooks": []}`), testBin); err == nil {
		t.Error("hooks as a list accepted")
	}
}
