package scanner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScanRealOpencodeDatabase scans, while opencode writes it, a
// database the opencode CLI writes itself: testdata/opencode-db/
// opencode-run.py drives it with a fake model on 127.0.0.1 (a bash call
// that fails, one that works, a #lesson block), and the scans go on
// until it exits. It runs when opencode is on PATH or LESSONS_OPENCODE
// names it (npm install --prefix /tmp/oc opencode-ai).
func TestScanRealOpencodeDatabase(t *testing.T) {
	bin := os.Getenv("LESSONS_OPENCODE")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("opencode"); err != nil {
			t.Skip("opencode is not installed; set LESSONS_OPENCODE to its binary")
		}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 to run the fake model")
	}
	home, state := t.TempDir(), t.TempDir()
	data := filepath.Join(home, ".local", "share", "opencode")
	var out strings.Builder
	cmd := exec.Command("python3", "../testdata/opencode-db/opencode-run.py", bin, home, "0.5")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	during := 0
	for running := true; running; {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("opencode-run.py: %v\n%s", err, out.String())
			}
			running = false
		default:
		}
		if _, err := os.Stat(filepath.Join(data, "opencode.db")); err != nil {
			continue
		}
		rep := scan(t, state, Options{Paths: []string{data}})
		if len(rep.Errors) > 0 {
			t.Fatalf("scan while opencode writes: %v", rep.Errors)
		}
		if running {
			during++
			time.Sleep(2 * time.Millisecond)
		}
	}
	if during == 0 {
		t.Error("no scan ran while opencode wrote")
	}
	c := find(candidates(t, state), KindTag, "sort -k 0")
	if c == nil {
		t.Fatalf("the #lesson block opencode stored was not found after %d scans while it wrote", during)
	}
	if p := c.Provenance[0]; c.Occurrences != 1 || p.Agent != "opencode" || !strings.HasPrefix(p.SessionID, "ses_") || filepath.Base(p.Project) != "project" || p.Line != 4 {
		t.Errorf("candidate %+v, want one from opencode's session in the project dir, 4th message", c)
	}
	full := scan(t, state, Options{Paths: []string{data}, Full: true})
	if fc := full.Formats[FormatOpencodeDB]; fc == nil || fc.Files != 1 || fc.Lines != 4 {
		t.Errorf("--full read %+v, want 1 session of 4 messages (the prompt and 3 steps)", fc)
	}
	t.Logf("%d scans while opencode wrote", during)
}
