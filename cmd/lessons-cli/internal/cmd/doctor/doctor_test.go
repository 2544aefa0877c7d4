package doctor

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

const lesson = `id: %ID%
slug: %SLUG%
summary: npm publish from a dirty tree ships files nobody reviewed
problem: npm publish packs whatever is in the directory, including untracked build output.
solution: Run npm pack --dry-run first and publish from a clean checkout in CI.
triggers:
  %TRIGGER%
examples:
  match:
    - npm publish
`

func write(t *testing.T, path, id, slug, trigger string) {
	t.Helper()
	text := strings.NewReplacer("%ID%", id, "%SLUG%", slug, "%TRIGGER%", trigger).Replace(lesson)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDoctor(t *testing.T) {
	root := t.TempDir()
	d := scope.Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache")}
	g := d.GlobalLessons()
	write(t, filepath.Join(g, "backtracks.yaml"), "01JD6V7Q8YB3K0ZP2M4N5R6S71", "backtracks", `commands: ['npm publish|(a+)+$']`)
	write(t, filepath.Join(g, "shell-tool.yaml"), "01JD6V7Q8YB3K0ZP2M4N5R6S72", "shell-tool", "tools: [Shell]\n  commands: ['npm publish']")
	write(t, filepath.Join(g, "copy-one.yaml"), "01JD6V7Q8YB3K0ZP2M4N5R6S73", "copy-one", `commands: ['npm\s+publish']`)
	write(t, filepath.Join(g, "misnamed.yaml"), "01JD6V7Q8YB3K0ZP2M4N5R6S74", "other-name", `commands: ['npm publish\b']`)
	if err := os.WriteFile(d.GlobalConfig(), []byte("minPriority: 2\nmaxLesons: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ios, _, out, _ := iostreams.Test()
	err := doctorRun(&Options{IO: ios, Dirs: d, WorkingDir: func() (string, error) { return root, nil }, Loader: repo.Loader{}, JSON: true})
	if !errors.Is(err, cmdutil.ErrSilent) {
		t.Errorf("doctor: %v, want exit 1", err)
	}
	var fs []Finding
	if err := json.Unmarshal(out.Bytes(), &fs); err != nil {
		t.Fatal(err)
	}
	want := []struct{ sev, file, text string }{
		{SeverityError, "backtracks.yaml", "backtracks catastrophically"},
		{SeverityWarning, "shell-tool.yaml", `"Shell"`},
		{SeverityError, "misnamed.yaml", "file is named misnamed.yaml"},
		{SeverityError, "config.yaml", "maxLesons"},
		{SeverityWarning, "shell-tool.yaml", "words with"},
		{SeverityWarning, "global.manifest", "no manifest"},
	}
	for _, w := range want {
		if !slices.ContainsFunc(fs, func(f Finding) bool {
			return f.Severity == w.sev && filepath.Base(f.File) == w.file && strings.Contains(f.Message+f.Field, w.text) && f.Fix != ""
		}) {
			t.Errorf("no %s in %s about %s, with a fix; findings:\n%s", w.sev, w.file, w.text, out)
		}
	}
	for _, f := range fs {
		if filepath.Base(f.File) == "config.yaml" && f.Line != 2 {
			t.Errorf("config finding at line %d, want 2: %+v", f.Line, f)
		}
	}

	var raw []map[string]any
	_ = json.Unmarshal(out.Bytes(), &raw)
	var keys []string
	for k := range raw[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"column", "field", "file", "fix", "line", "message", "severity"}; !slices.Equal(keys, want) {
		t.Errorf("JSON fields = %v, want %v", keys, want)
	}
}

func TestDoctorWarningsOnly(t *testing.T) {
	root := t.TempDir()
	d := scope.Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache")}
	ios, _, out, _ := iostreams.Test()
	err := doctorRun(&Options{IO: ios, Dirs: d, WorkingDir: func() (string, error) { return root, nil }, Loader: repo.Loader{}})
	if err != nil {
		t.Errorf("doctor with only the built-in lessons and no manifest: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "0 errors") {
		t.Errorf("output:\n%s", out)
	}
}

// TestDoctorSameCallsOtherMistake: two lessons on npm publish that teach
// different things fire together but are no duplicate, as add writes
// them; the same mistake in other words is one.
func TestDoctorSameCallsOtherMistake(t *testing.T) {
	root := t.TempDir()
	d := scope.Dirs{Home: filepath.Join(root, "home"), Cache: filepath.Join(root, "cache")}
	g := d.GlobalLessons()
	write(t, filepath.Join(g, "publish-clean.yaml"), "01JD6V7Q8YB3K0ZP2M4N5R6S81", "publish-clean", `commands: ['npm\s+publish']`)
	other := strings.NewReplacer(
		"npm publish from a dirty tree ships files nobody reviewed", "npm publish in this monorepo must name the workspace package",
		"npm publish packs whatever is in the directory, including untracked build output.", "At the root it tries to publish the private root package and fails after the version bump.",
		"Run npm pack --dry-run first and publish from a clean checkout in CI.", "Pass --workspace=packages/NAME for the one package you released.",
	).Replace(strings.NewReplacer("%ID%", "01JD6V7Q8YB3K0ZP2M4N5R6S82", "%SLUG%", "publish-workspace", "%TRIGGER%", `commands: ['npm\s+publish']`).Replace(lesson))
	if err := os.WriteFile(filepath.Join(g, "publish-workspace.yaml"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	restated := strings.NewReplacer(
		"npm publish from a dirty tree ships files nobody reviewed", "npm publish ships untracked build output from the working tree",
		"Run npm pack --dry-run first and publish from a clean checkout in CI.", "Check the files with npm pack --dry-run, then publish from a clean CI checkout.",
	).Replace(strings.NewReplacer("%ID%", "01JD6V7Q8YB3K0ZP2M4N5R6S83", "%SLUG%", "publish-restated", "%TRIGGER%", `commands: ['\bnpm publish\b']`).Replace(lesson))
	if err := os.WriteFile(filepath.Join(g, "publish-restated.yaml"), []byte(restated), 0o644); err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := iostreams.Test()
	_ = doctorRun(&Options{IO: ios, Dirs: d, WorkingDir: func() (string, error) { return root, nil }, Loader: repo.Loader{}, JSON: true})
	var fs []Finding
	if err := json.Unmarshal(out.Bytes(), &fs); err != nil {
		t.Fatal(err)
	}
	var dup []string
	for _, f := range fs {
		if strings.Contains(f.Message, "publish-") {
			dup = append(dup, filepath.Base(f.File)+": "+f.Message)
		}
	}
	if len(dup) != 1 || !strings.HasPrefix(dup[0], "publish-restated.yaml: ") {
		t.Errorf("findings about the publish lessons: %q, want one, about the restated copy", dup)
	}
}
