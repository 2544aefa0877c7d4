package agents

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestBuiltInstallByRelease installs for Claude Code with a claude on
// PATH that says its release: PreSkillShellCommand is registered from
// 2.1.332, left out before with a note saying what that leaves
// unchecked, registered with a note when no claude says a release; and
// doctor wants it only where the release has it.
func TestBuiltInstallByRelease(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	for _, tt := range []struct {
		release string // "": no claude on PATH
		has     bool
		note    string
	}{
		{"2.1.332", true, ""},
		{"2.1.400", true, ""},
		{"2.1.331", false, "Claude Code 2.1.331 has no PreSkillShellCommand (2.1.332 added it)"},
		{"", true, "claude did not say its version (is it on PATH?), so lessons registered PreSkillShellCommand too"},
	} {
		t.Run("release "+tt.release, func(t *testing.T) {
			s := newSandbox(t)
			if tt.release != "" {
				bin := filepath.Join(s.home, "bin")
				s.write(filepath.Join(bin, "claude"), []byte("#!/bin/sh\necho '"+tt.release+" (Claude Code)'\n"))
				if err := os.Chmod(filepath.Join(bin, "claude"), 0o755); err != nil {
					t.Fatal(err)
				}
				for i, kv := range s.env {
					if strings.HasPrefix(kv, "PATH=") {
						s.env[i] = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
					}
				}
			}
			cmd := exec.Command(filepath.Join(s.bin, "lessons"), "install", "--platform", "claude")
			cmd.Dir, cmd.Env = s.project, s.env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("install: %v\n%s", err, stderr.Bytes())
			}
			getenv := func(k string) string {
				for _, kv := range s.env {
					if v, ok := strings.CutPrefix(kv, k+"="); ok {
						return v
					}
				}
				return ""
			}
			path := Agents["claude"].Path(EnvFrom(getenv), "")
			events, _, err := Agents["claude"].Installed(s.read(path))
			if err != nil {
				t.Fatal(err)
			}
			if has := slices.Contains(events, "PreSkillShellCommand"); has != tt.has {
				t.Errorf("PreSkillShellCommand installed: %v, want %v (events %v)", has, tt.has, events)
			}
			if got := stderr.String(); tt.note != "" && !strings.Contains(got, "note: "+tt.note) || tt.note == "" && strings.Contains(got, "PreSkillShellCommand") {
				t.Errorf("install said:\n%s\nwant a note %q", got, tt.note)
			}
			for _, kv := range s.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			if ps := Check(getenv, s.project); len(ps) > 0 {
				t.Errorf("doctor after install: %+v", ps)
			}
			if !tt.has || tt.release == "" {
				return
			}
			// Where the release has the event, doctor wants it.
			data := s.read(path)
			skill := slices.IndexFunc(Agents["claude"].Events, func(ev Event) bool { return ev.Name == "PreSkillShellCommand" })
			without, _, err := (&Agent{Events: Agents["claude"].Events[skill : skill+1]}).RemoveHooks(data, data)
			if err != nil {
				t.Fatal(err)
			}
			s.write(path, without)
			if ps := Check(getenv, s.project); len(ps) != 1 || !strings.Contains(ps[0].Message, "but not for PreSkillShellCommand") {
				t.Errorf("doctor without PreSkillShellCommand on %s: %+v", tt.release, ps)
			}
		})
	}
}
