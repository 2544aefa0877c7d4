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

const goTestingSlug = "go-test-caches-passing-package-results"

// claudeSession is a Claude Code log of one session in directory cwd
// that ran command and saw it succeed.
func claudeSession(id, cwd, command string) string {
	return fmt.Sprintf(`{"type":"user","sessionId":"%[1]s","cwd":%[3]q,"uuid":"u-%[1]s","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"run the tests"}}
{"type":"assistant","sessionId":"%[1]s","cwd":%[3]q,"uuid":"a-%[1]s","timestamp":"2026-11-20T10:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t-%[1]s","name":"Bash","input":{"command":%[2]q}}]}}
{"type":"user","sessionId":"%[1]s","cwd":%[3]q,"uuid":"r-%[1]s","timestamp":"2026-11-20T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t-%[1]s","content":"ok  \texample.com/app\t0.01s"}]}}
`, id, command, cwd)
}

// gateWorld is a user under root with Claude Code logs in root/logs and
// a project at root/app.
type gateWorld struct {
	t          *testing.T
	root, app  string
	dirs       scope.Dirs
	logs, next int
}

func newGateWorld(t *testing.T) *gateWorld {
	root := t.TempDir()
	w := &gateWorld{t: t, root: root, app: filepath.Join(root, "app"),
		dirs: scope.Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache"), State: filepath.Join(root, "state")}}
	for _, d := range []string{w.dirs.Home, filepath.Join(w.app, scope.ProjectDirName)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.config(w.dirs.GlobalConfig(), "scanPaths: ["+filepath.Join(root, "logs")+"]\n")
	return w
}

func (w *gateWorld) config(path, text string) {
	w.t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// sessions writes n sessions in directory cwd, each running go test ./...
// and passing.
func (w *gateWorld) sessions(cwd string, n int) {
	w.t.Helper()
	logs := filepath.Join(w.root, "logs", "projects", strings.ReplaceAll(cwd, "/", "-"))
	if err := os.MkdirAll(logs, 0o755); err != nil {
		w.t.Fatal(err)
	}
	for range n {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", w.next)
		w.next++
		w.config(filepath.Join(logs, id+".jsonl"), claudeSession(id, cwd, "go test ./..."))
	}
}

// warnings runs doctor in the project and returns its warnings about the
// go-testing pack's lesson.
func (w *gateWorld) warnings() []Finding {
	w.t.Helper()
	ios, _, out, _ := iostreams.Test()
	getenv := func(k string) string {
		if k == "HOME" {
			return w.root
		}
		return ""
	}
	if err := doctorRun(&Options{IO: ios, Dirs: w.dirs, WorkingDir: func() (string, error) { return w.app, nil }, Loader: repo.Loader{}, Getenv: getenv, JSON: true}); err != nil {
		w.t.Fatalf("doctor: %v", err)
	}
	var fs, about []Finding
	if err := json.Unmarshal(out.Bytes(), &fs); err != nil {
		w.t.Fatal(err)
	}
	for _, f := range fs {
		if strings.Contains(f.Message, goTestingSlug) && strings.Contains(f.Message, "pack:go-testing") {
			about = append(about, f)
		}
	}
	return about
}

// TestDoctorPackGate: a user who subscribed to a pack whose lesson fires
// in every one of their recent sessions, each time before a call that
// went fine, is warned about that lesson, by name and file.
func TestDoctorPackGate(t *testing.T) {
	w := newGateWorld(t)
	w.config(w.dirs.GlobalConfig(), "scanPaths: ["+filepath.Join(w.root, "logs")+"]\npacks:\n  - name: go-testing\n    url: builtin:go-testing\n")
	w.sessions("/home/dev/other", 25)
	fs := w.warnings()
	if len(fs) == 0 || fs[0].Severity != SeverityWarning || !strings.HasSuffix(fs[0].File, ".yaml") {
		t.Errorf("doctor did not warn about the pack lesson that fired in all 25 sessions before fine calls: %+v", fs)
	}
}

// TestDoctorPackGateProjectSessions: a pack the project subscribes to
// applies in that project only, so doctor judges it on the project's
// sessions: the same noisy fires in another project's sessions are no
// reason to warn, and in the project's own they are.
func TestDoctorPackGateProjectSessions(t *testing.T) {
	w := newGateWorld(t)
	w.config(scope.ProjectConfig(w.app), "packs:\n  - name: go-testing\n    url: builtin:go-testing\n")
	w.sessions("/home/dev/other", 25)
	w.sessions(w.app, 2)
	if fs := w.warnings(); len(fs) > 0 {
		t.Errorf("doctor judged the project's pack on other projects' sessions: %+v", fs)
	}
	w.sessions(filepath.Join(w.app, "cmd", "tool"), 23)
	fs := w.warnings()
	if len(fs) == 0 || !strings.Contains(fs[0].Message, "this project's") {
		t.Errorf("doctor did not warn about the pack lesson that fired in all 25 of the project's sessions before fine calls: %+v", fs)
	}
}
