package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/scope"
)

// fakeCLI writes a lessons-cli that appends its arguments to the file it
// returns, for scans only.
func fakeCLI(t *testing.T) (cli, ran string) {
	t.Helper()
	dir := t.TempDir()
	cli, ran = filepath.Join(dir, "lessons-cli"), filepath.Join(dir, "ran")
	script := "#!/bin/sh\n[ \"$1\" = scan ] && echo \"$@ $(pwd)\" >> '" + ran + "'\nexit 0\n"
	if err := os.WriteFile(cli, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cli, ran
}

// runs waits up to a few seconds for the fake CLI to have run n times.
func runs(t *testing.T, ran string, n int) []string {
	t.Helper()
	var lines []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(ran)
		if lines = strings.Fields(strings.ReplaceAll(string(data), " ", "_")); len(lines) >= n {
			break
		}
	}
	return lines
}

func TestLaunchScanAtMostOncePerInterval(t *testing.T) {
	cli, ran := fakeCLI(t)
	find := func() (string, string) { return cli, "" }
	state := filepath.Join(t.TempDir(), "state")
	cwd := t.TempDir()
	info := engine.StartInfo{Dirs: scope.Dirs{State: state}, Cwd: cwd, Config: lessons.Config{ScanIntervalMinutes: 60}}
	now := time.Now()
	for _, at := range []time.Time{now, now.Add(59 * time.Minute)} {
		if err := launchScan(info, at, find); err != nil {
			t.Fatal(err)
		}
	}
	if got := runs(t, ran, 1); len(got) != 1 || got[0] != "scan_--quiet_"+cwd {
		t.Fatalf("after two starts within the interval, the CLI ran %q; want one scan --quiet in %s", got, cwd)
	}
	if err := launchScan(info, now.Add(61*time.Minute), find); err != nil {
		t.Fatal(err)
	}
	if got := runs(t, ran, 2); len(got) != 2 {
		t.Errorf("after the interval, the CLI ran %d times; want 2", len(got))
	}
	if _, err := os.Stat(filepath.Join(state, scanLog)); err != nil {
		t.Errorf("no scan log: %v", err)
	}

	none := func() (string, string) { return "", "nowhere" }
	other := engine.StartInfo{Dirs: scope.Dirs{State: t.TempDir()}, Config: lessons.Config{ScanIntervalMinutes: 60}}
	if err := launchScan(other, now, none); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(other.Dirs.State, scanStamp)); err == nil {
		t.Error("without lessons-cli the stamp was written")
	}
	off := info
	off.Config.ScanIntervalMinutes, off.Dirs.State = 0, t.TempDir()
	if err := launchScan(off, now, find); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(off.Dirs.State, scanStamp)); err == nil {
		t.Error("a zero interval launched a scan")
	}
}

// TestSessionStartLaunchesOneScan runs the built hook on two session
// starts: the first launches a background scan, the second, within the
// interval, does not; neither waits for it.
func TestSessionStartLaunchesOneScan(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	cli, ran := fakeCLI(t)
	// The fake scan would hold the hook for a second if it waited.
	slow := strings.Replace(mustRead(t, cli), "exit 0", "sleep 1; exit 0", 1)
	if err := os.WriteFile(cli, []byte(slow), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		start := time.Now()
		out := e.runHook(t, "claude", e.payload(t, "claude-sessionstart-startup"), "LESSONS_CLI="+cli)
		if took := time.Since(start); took > 800*time.Millisecond {
			t.Errorf("session start %d took %v: the hook waited for the scan", i+1, took)
		}
		if !strings.Contains(context(t, out), "#lesson") {
			t.Errorf("session start %d answered without the protocol: %s", i+1, out)
		}
	}
	if got := runs(t, ran, 1); len(got) != 1 {
		t.Fatalf("two session starts ran the CLI's scan %d times (%q); want once", len(got), got)
	}
	time.Sleep(300 * time.Millisecond)
	if data, _ := os.ReadFile(ran); strings.Count(string(data), "\n") != 1 {
		t.Errorf("a second session start within the interval launched another scan: %q", data)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
