//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// cliName is the full CLI's file name beside this binary.
const cliName = "lessons-cli"

// handOff replaces this process with the full CLI, so its exit code,
// signals and terminal are the user's directly. It returns only on error.
func handOff(cli string, argv []string) error {
	return syscall.Exec(cli, argv, os.Environ())
}

// detach makes a background child outlive the hook in a session of its
// own, so a terminal's hang-up does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// isExecutable reports whether p is a file someone may run.
func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
