package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/lessons-dev/lessons/engine"
)

// Files of the background scan in the state directory.
const (
	// scanStamp's mtime is when a session start last launched a scan.
	scanStamp = "scan.stamp"
	// scanLog holds what the last background scan printed.
	scanLog = "scan.log"
)

// startScan is the hook's OnStartup: when a session starts, it launches
// `lessons-cli scan --quiet` in the background so that the mistakes of
// past sessions become candidates with no one asking. It costs the hook
// one stat unless scanIntervalMinutes have passed since the last launch,
// and never waits for the scan: the child runs in a session of its own,
// with its output in scan.log, and outlives the hook. The scanner's lock
// keeps two scans from running at once. Failures are ignored: the scan
// is a convenience, and the next session start tries again.
func startScan(info engine.StartInfo) {
	_ = launchScan(info, time.Now(), findCLI)
}

// launchScan is startScan with its clock and CLI lookup passed in.
func launchScan(info engine.StartInfo, now time.Time, find func() (string, string)) error {
	interval := time.Duration(info.Config.ScanIntervalMinutes) * time.Minute
	if interval <= 0 || info.Dirs.State == "" {
		return nil
	}
	stamp := filepath.Join(info.Dirs.State, scanStamp)
	if fi, err := os.Stat(stamp); err == nil && now.Sub(fi.ModTime()) < interval && !fi.ModTime().After(now) {
		return nil
	}
	cli, _ := find()
	if cli == "" {
		return nil
	}
	// Stamp first: a session starting meanwhile must not launch another.
	if err := os.MkdirAll(info.Dirs.State, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		return err
	}
	if err := os.Chtimes(stamp, now, now); err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(info.Dirs.State, scanLog), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(cli, "scan", "--quiet")
	// The project's config may name other scanPaths.
	cmd.Dir = info.Cwd
	if fi, err := os.Stat(cmd.Dir); err != nil || !fi.IsDir() {
		cmd.Dir = info.Dirs.State
	}
	cmd.Stdout, cmd.Stderr = log, log // stdin is /dev/null
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
