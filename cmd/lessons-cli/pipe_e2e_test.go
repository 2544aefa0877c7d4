//go:build unix

package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestE2EPipeInLessonsDir: a named pipe among the project's lesson files
// does not hang list, build or doctor, each of which names it.
func TestE2EPipeInLessonsDir(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	pipe := filepath.Join(s.project, ".lessons", "stuck.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for _, name := range []string{"list", "build", "doctor"} {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		cmd := exec.CommandContext(ctx, bin.cli, name)
		cmd.Dir, cmd.Env = s.project, s.env
		out, _ := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Errorf("%s blocked on a named pipe in .lessons (killed after 20 s)", name)
		} else if !strings.Contains(string(out), pipe) || !strings.Contains(string(out), "named pipe") {
			t.Errorf("%s does not name the pipe:\n%s", name, out)
		}
		cancel()
	}
}
