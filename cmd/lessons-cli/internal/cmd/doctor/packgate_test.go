package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// claudeSession is a Claude Code log of one session that ran command and
// saw it succeed.
func claudeSession(id, command string) string {
	return fmt.Sprintf(`{"type":"user","sessionId":"%[1]s","cwd":"/home/dev/app","uuid":"u-%[1]s","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"run the tests"}}
{"type":"assistant","sessionId":"%[1]s","cwd":"/home/dev/app","uuid":"a-%[1]s","timestamp":"2026-11-20T10:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t-%[1]s","name":"Bash","input":{"command":%[2]q}}]}}
{"type":"user","sessionId":"%[1]s","cwd":"/home/dev/app","uuid":"r-%[1]s","timestamp":"2026-11-20T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t-%[1]s","content":"ok  \texample.com/app\t0.01s"}]}}
`, id, command)
}

// TestDoctorPackGate: a user who subscribed to a pack whose lesson fires
// in every one of their recent sessions, each time before a call that
// went fine, is warned about that lesson, by name and file.
func TestDoctorPackGate(t *testing.T) {
	root := t.TempDir()
	d := scope.Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache"), State: filepath.Join(root, "state")}
	logs := filepath.Join(root, "logs", "projects", "-home-dev-app")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		if err := os.WriteFile(filepath.Join(logs, id+".jsonl"), []byte(claudeSession(id, "go test ./...")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(d.Home, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "scanPaths: [" + filepath.Join(root, "logs") + "]\npacks:\n  - name: go-testing\n    url: builtin:go-testing\n"
	if err := os.WriteFile(d.GlobalConfig(), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := iostreams.Test()
	getenv := func(k string) string {
		if k == "HOME" {
			return root
		}
		return ""
	}
	if err := doctorRun(&Options{IO: ios, Dirs: d, WorkingDir: func() (string, error) { return root, nil }, Loader: repo.Loader{}, Getenv: getenv, JSON: true}); err != nil {
		t.Fatalf("doctor: %v", err)
	}
	var fs []Finding
	if err := json.Unmarshal(out.Bytes(), &fs); err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, f := range fs {
		if strings.Contains(f.Message, "go-test-caches-passing-package-results") && strings.Contains(f.Message, "pack:go-testing") {
			warned = f.Severity == SeverityWarning && strings.HasSuffix(f.File, ".yaml")
		}
	}
	if !warned {
		t.Errorf("doctor did not warn about the pack lesson that fired in all 25 sessions before fine calls:\n%s", out)
	}
}
