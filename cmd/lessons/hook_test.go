package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	lessons "github.com/lessons-dev/lessons"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/hooks")

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binary builds ./cmd/lessons once for all tests.
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "lessons-bin")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "lessons")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build: %v", buildErr)
	}
	return binPath
}

// runHook runs `lessons hook` on a payload and returns its stdout.
func (e *env) runHook(t testing.TB, platform string, payload []byte, extraEnv ...string) []byte {
	t.Helper()
	cmd := exec.Command(binary(t), "hook", "--platform", platform)
	cmd.Env = append(e.vars(), extraEnv...)
	cmd.Stdin = bytes.NewReader(payload)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lessons hook: %v\n%s", err, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Errorf("lessons hook wrote to stderr: %s", stderr.Bytes())
	}
	return out
}

// payload fills in a fixture's $PROJECT.
func (e *env) payload(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hooks", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(data), "$PROJECT", e.project))
}

// setup is what a fixture's NAME.setup.jsonl holds: payloads of the same
// session sent before it, one a line.
func (e *env) setup(t testing.TB, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hooks", name+".setup.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for line := range strings.Lines(strings.ReplaceAll(string(data), "$PROJECT", e.project)) {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, []byte(line))
		}
	}
	return out
}

func TestHookGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hooks", "*.json"))
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/hooks")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			// The fixtures show the shape of every answer, prompt-time
			// lessons' included: on here, off by default (see
			// TestPromptLessonsOffByDefault).
			cfg := lessons.DefaultConfig()
			cfg.PromptLessons = "on"
			e.writeManifest(t, cfg, fixtureLessons())
			platform, rest, _ := strings.Cut(name, "-")
			for _, line := range e.setup(t, name) {
				e.runHook(t, platform, line) // earlier events of the session
			}
			var out []byte
			if platform == "antigravity" { // its payloads name no event
				event, _, _ := strings.Cut(rest, "-")
				out = []byte(e.runHookArgs(t, []string{"--platform", platform, "--event", event}, string(e.payload(t, name))) + "\n")
			} else {
				out = e.runHook(t, platform, e.payload(t, name))
			}
			checkShapeFor(t, platform, out)
			got := strings.ReplaceAll(string(out), e.project, "$PROJECT")
			golden := strings.TrimSuffix(f, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("lessons hook on %s:\n got: %s\nwant: %s", name, got, want)
			}
			if log, err := os.ReadFile(filepath.Join(e.state, "hook.log")); err == nil {
				t.Errorf("hook.log: %s", log)
			}
		})
	}
}

// checkShape holds an answer to what Claude Code and Codex accept: one
// JSON object, no top-level key but hookSpecificOutput, which names its
// event, and text under 10,000 characters.
func checkShape(t testing.TB, out []byte) {
	t.Helper()
	checkShapeFor(t, "claude", out)
}

// topLevelKeys are the keys each platform's answers may have; Gemini CLI
// reads a decision and its reason at the top level.
var topLevelKeys = map[string][]string{
	"claude":   {"hookSpecificOutput"},
	"codex":    {"hookSpecificOutput"},
	"opencode": {"hookSpecificOutput"},
	"gemini":   {"hookSpecificOutput", "decision", "reason"},
	// Antigravity CLI: both block forms, and injectSteps at PreInvocation
	"antigravity": {"allowTool", "denyReason", "decision", "reason", "injectSteps"},
}

// checkShapeFor holds an answer to what the platform's agent accepts.
func checkShapeFor(t testing.TB, platform string, out []byte) {
	t.Helper()
	var v map[string]json.RawMessage
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("answer is not one JSON object: %v: %s", err, out)
	}
	for k, raw := range v {
		if !slices.Contains(topLevelKeys[platform], k) {
			t.Errorf("answer has top-level key %q", k)
		}
		if k != "hookSpecificOutput" {
			continue
		}
		var spec map[string]any
		if err := json.Unmarshal(raw, &spec); err != nil {
			t.Fatalf("hookSpecificOutput is not an object: %s", out)
		}
		if name, _ := spec["hookEventName"].(string); name == "" {
			t.Errorf("hookSpecificOutput without hookEventName: %s", out)
		}
		if text, _ := spec["additionalContext"].(string); len([]rune(text)) >= 10000 {
			t.Errorf("additionalContext has %d characters", len([]rune(text)))
		}
	}
}

// context is the additionalContext of an answer, "" for none.
func context(t testing.TB, out []byte) string {
	t.Helper()
	checkShape(t, out)
	var v struct {
		Spec struct {
			Text string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v.Spec.Text
}
