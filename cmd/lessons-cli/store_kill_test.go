//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// killArgs are a valid lesson unlike any other the test adds.
func killArgs(i int) []string {
	w := fmt.Sprintf("widget%d", i)
	return []string{"add", "--force",
		"--summary", "Never restart the " + w + " service while its queue drains",
		"--problem", "Restarting " + w + " during a drain dropped the in-flight jobs of that queue.",
		"--solution", "Wait until the " + w + " queue reports empty, then restart the service.",
		"--command", `\brestart\s+` + w + `\b`,
		"--match", "restart " + w + " now",
		"--no-match", "restart other",
	}
}

// TestStoreSurvivesKill kills lessons add at random points, 100 times.
// After each kill the next add must work and the history must keep every
// commit it had; every tenth round, doctor --fix must leave a store that
// git fsck and doctor find sound, with nothing left uncommitted.
// Before the store wrote its branch and index git's way, a kill left a
// 0-byte index (every later add failed) or an empty branch (the next add
// started a new history).
func TestStoreSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills lessons add 100 times")
	}
	s := newSandbox(t)
	s.ok(s.root, "init")
	start := time.Now()
	s.ok(s.root, killArgs(-1)...)
	full := time.Since(start)
	have := len(commits(t, s.home))
	r := rand.New(rand.NewPCG(3, 5))
	for i := range 100 {
		cmd := exec.Command(bin.cli, killArgs(2*i)...)
		cmd.Dir, cmd.Env = s.root, s.env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(r.Int64N(int64(full + full/2))))
		cmd.Process.Kill()
		cmd.Wait()

		next := s.run(s.root, "", killArgs(2*i+1)...)
		if next.code != 0 {
			t.Fatalf("round %d: the add after a kill failed: %s%s", i, next.stdout, next.stderr)
		}
		now := len(commits(t, s.home))
		if now <= have {
			t.Fatalf("round %d: the store has %d commits, had %d before the round", i, now, have)
		}
		have = now
		if i%10 != 9 {
			continue
		}
		fix := s.run(s.root, "", "doctor", "--fix", "--json")
		var findings []struct{ File, Message string }
		if err := json.Unmarshal([]byte(fix.stdout), &findings); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, fix.stdout)
		}
		for _, f := range findings {
			if f.File == s.home {
				t.Fatalf("round %d: doctor --fix left a store problem: %s\n%s", i, f.Message, fix.stderr)
			}
		}
		have = len(commits(t, s.home))
		if out, err := exec.Command("git", "-C", s.home, "fsck", "--strict").CombinedOutput(); err != nil {
			t.Fatalf("round %d: git fsck: %v\n%s", i, err, out)
		}
		if out, _ := exec.Command("git", "-C", s.home, "status", "--porcelain").Output(); len(out) > 0 {
			t.Fatalf("round %d: after doctor --fix, git status shows:\n%s", i, out)
		}
	}
	t.Logf("%d commits after 100 kills (a full add takes %v)", have, full)
}

// TestCommitOnlyWhatChanged: what the user staged in the store stays
// staged and out of the commit lessons makes.
func TestCommitOnlyWhatChanged(t *testing.T) {
	s := newSandbox(t)
	s.ok(s.root, "init")
	s.write(s.home+"/notes.txt", "my notes\n")
	if out, err := exec.Command("git", "-C", s.home, "add", "notes.txt").CombinedOutput(); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	s.ok(s.root, killArgs(1)...)
	out, _ := exec.Command("git", "-C", s.home, "show", "--name-only", "--format=", "HEAD").Output()
	if strings.Contains(string(out), "notes.txt") || !strings.Contains(string(out), "lessons/") {
		t.Errorf("the add's commit holds:\n%s", out)
	}
	status, _ := exec.Command("git", "-C", s.home, "status", "--porcelain").Output()
	if strings.TrimSpace(string(status)) != "A  notes.txt" {
		t.Errorf("git status after the add = %q, want notes.txt still staged", status)
	}
}
