package main

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// cliName is the full CLI's file name beside this binary.
const cliName = "lessons-cli.exe"

// handOff runs the full CLI with this process's streams and exits with
// its code: Windows cannot replace a running process. It returns only
// when the CLI could not be started.
func handOff(cli string, argv []string) error {
	cmd := exec.Command(cli, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		return err
	}
	os.Exit(0)
	return nil
}

// detach starts a background child in a process group of its own and
// without a console, so it outlives the hook.
func detach(cmd *exec.Cmd) {
	const detachedProcess = 0x00000008
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

// isExecutable reports whether p is a regular file: Windows has no
// execute bit, and cliName already carries .exe.
func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
