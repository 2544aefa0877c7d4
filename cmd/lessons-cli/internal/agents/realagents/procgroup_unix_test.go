//go:build unix

package realagents

import (
	"os/exec"
	"syscall"
)

// endAll makes the command's cancellation end the agent and every child
// it started (MCP servers, shells): they share its process group.
func endAll(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
