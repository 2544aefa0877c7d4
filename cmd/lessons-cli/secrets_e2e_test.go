package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/lessons-dev/lessons/engine/secret/secrettest"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
	"github.com/lessons-dev/lessons/scope"
)

// TestE2ESecretsNeverStored plants every kind of secret of redacttest in
// a session log, as the agent's own #lesson tags, as a failing command
// retried, and as the reason of a rejected call; scans; promotes every
// tag into the global store; and then finds none of them anywhere in
// the store: files, file names, every commit's tree and message, the
// candidate state, and the manifest built from the lessons.
func TestE2ESecretsNeverStored(t *testing.T) {
	s := newSandbox(t)
	logs := filepath.Join(s.root, "logs")
	s.write(filepath.Join(logs, "-home-dev-vault", "secrets.jsonl"), secretSession(t))
	s.ok(s.root, "init")
	s.ok(s.root, "scan", "--path", logs)

	r := s.ok(s.root, "candidates", "--json")
	var cands []struct{ ID, Kind string }
	if err := json.Unmarshal([]byte(r.stdout), &cands); err != nil {
		t.Fatalf("candidates --json: %v\n%s", err, r.stdout)
	}
	promoted := 0
	for _, c := range cands {
		if c.Kind != "tag" {
			continue
		}
		if r := s.run(s.root, "", "promote", c.ID, "--global"); r.code != 0 {
			t.Logf("promote %s: exit %d\n%s", c.ID, r.code, r.stderr)
			continue
		}
		promoted++
	}
	// A tag whose lesson an intake check refuses stays a candidate,
	// which is checked too; most must make it into the store.
	if want := len(secrettest.Secrets); promoted < want-3 || len(cands) <= want {
		t.Fatalf("%d candidates, %d tags promoted; want a tag per secret (%d) and the heuristics' candidates", len(cands), promoted, want)
	}

	s.ok(s.root, "build") // the manifest holds the lessons' text too
	stored := storeText(t, s.home) + storeText(t, filepath.Join(s.root, "state")) + storeText(t, filepath.Join(s.root, "cache"))
	for _, sec := range secrettest.Secrets {
		for _, v := range []string{sec.Value, strings.ToLower(sec.Value)} {
			if strings.Contains(stored, v) {
				t.Errorf("%s (%s) is stored", sec.Kind, v)
				break
			}
		}
	}
	if !strings.Contains(stored, "[REDACTED]") {
		t.Error("no [REDACTED] marker anywhere: nothing of the session was stored, so the test proves nothing")
	}
	// A slug or a summary reads as if the secret had never been there.
	files, _ := filepath.Glob(filepath.Join(s.home, "lessons", "*.yaml"))
	if len(files) < promoted {
		t.Fatalf("%d lesson files for %d promoted tags", len(files), promoted)
	}
	for _, f := range files {
		if strings.Contains(strings.ToLower(filepath.Base(f)), "redacted") {
			t.Errorf("slug %s names the redaction", filepath.Base(f))
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			if strings.HasPrefix(line, "summary:") && strings.Contains(strings.ToLower(line), "redacted") {
				t.Errorf("%s: %s", filepath.Base(f), line)
			}
		}
	}
}

// secretSession is a Claude Code session that shows every planted
// secret three ways. Each tag gets words of its own, so that no lesson is
// refused as a near duplicate of another.
func secretSession(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	line := func(uid, typ string, content any) {
		j, err := json.Marshal(map[string]any{"type": typ, "sessionId": "vault-1", "cwd": "/home/dev/vault", "uuid": uid,
			"message": map[string]any{"role": typ, "content": content}})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	call := func(uid, id, cmd string) {
		line(uid, "assistant", []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd}}})
	}
	result := func(uid, id string, failed bool, out string) {
		line(uid, "user", []any{map[string]any{"type": "tool_result", "tool_use_id": id, "is_error": failed, "content": out}})
	}
	for i, sec := range secrettest.Secrets {
		oneLine := strings.ReplaceAll(sec.Text, "\n", " ")
		n := fmt.Sprint(i)
		call("c"+n, "t"+n, oneLine)
		result("r"+n, "t"+n, true, "Exit code 1\nerror: refused: "+oneLine)
		call("d"+n, "u"+n, oneLine+" --retry "+word(i*20))
		result("s"+n, "u"+n, false, "done")
		call("e"+n, "v"+n, oneLine+" --dry-run")
		result("f"+n, "v"+n, true, "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection: never type "+oneLine)
		words := func(from, n int) string {
			var ws []string
			for k := range n {
				ws = append(ws, word(i*20+from+k))
			}
			return strings.Join(ws, " ")
		}
		// The trigger runs a command of its own, so that no two lessons
		// (and no built-in one) catch the same calls.
		tag := "#lesson\ntool: Bash\ntrigger: " + word(i*20+19) + " " + oneLine +
			"\nproblem: " + words(0, 6) + " " + oneLine +
			"\nsolution: " + words(6, 10) + " " + oneLine +
			"\ntags: tool:" + word(i*20) +
			"\nscope: global\n#/lesson"
		line("g"+n, "assistant", []any{map[string]any{"type": "text", "text": tag}})
	}
	return b.String()
}

// word is the i-th of many made-up words, so that each planted lesson
// has words of its own.
func word(i int) string {
	const cons, vows = "bdfgklmnprstvz", "aeiou"
	var w []byte
	for range 3 {
		w = append(w, cons[i%len(cons)], vows[(i/len(cons))%len(vows)])
		i /= len(cons) * len(vows)
	}
	return string(w)
}

// storeText is everything under dir, as text: every file's name and
// content and, for a git repository, every commit's message and every
// blob and path of every commit's tree.
func storeText(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + "\n")
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		return b.String()
	}
	log, err := r.Log(&git.LogOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	commits := 0
	err = log.ForEach(func(c *object.Commit) error {
		commits++
		b.WriteString(c.Message + "\n")
		files, err := c.Files()
		if err != nil {
			return err
		}
		return files.ForEach(func(f *object.File) error {
			text, err := f.Contents()
			b.WriteString(f.Name + "\n" + text)
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if commits < 2 {
		t.Errorf("%s has %d commits: nothing was promoted", dir, commits)
	}
	return b.String()
}

// TestE2ESubmitRefusesSecrets subscribes a project to a pack in a bare
// repository and submits, for every kind of secret, a lesson whose
// solution holds it in a YAML double-quoted string (so a JSON field's
// quotes are escaped as \"), then a clean lesson whose commit message
// holds it. Every submission is refused and the pack's repository holds
// no secret and no lesson branch.
func TestE2ESubmitRefusesSecrets(t *testing.T) {
	packtest.NeedGit(t)
	up := packtest.NewUpstream(t, t.TempDir(), "team", packtest.PackFiles(1))
	s := newSandbox(t)
	s.ok(s.project, "init", "--project")
	s.ok(s.project, "pack", "add", up.Bare, "--project")
	s.ok(s.project, "sync")
	dir := filepath.Join(s.project, scope.ProjectDirName)
	submit := func(slug string, extra ...string) result {
		return s.run(s.project, "", append([]string{"submit", slug, "--pack", "team", "--author-name", "Ada", "--author-email", "ada@example.com"}, extra...)...)
	}
	for i, sec := range secrettest.Secrets {
		n := 100 + i
		text := strings.ReplaceAll(sec.Text, "\n", " ")
		slug := fmt.Sprintf("planted-%d", i)
		solution := strconv.Quote(fmt.Sprintf("Pass --flag to cmd%d; the failing call was: %s", n, text))
		lesson := strings.Replace(packtest.LessonYAML(slug, n), fmt.Sprintf("solution: Pass --flag to cmd%d, or run it under timeout so it ends.", n), "solution: "+solution, 1)
		s.write(filepath.Join(dir, slug+".yaml"), lesson)
		if r := submit(slug); r.code == 0 || !strings.Contains(r.stderr, "looks like a secret") {
			t.Errorf("%s in the lesson: submit exit %d\n%s%s", sec.Kind, r.code, r.stdout, r.stderr)
		}
		clean := fmt.Sprintf("clean-%d", i)
		s.write(filepath.Join(dir, clean+".yaml"), packtest.LessonYAML(clean, 200+i))
		if r := submit(clean, "--message", "Add lesson; it came from "+text); r.code == 0 || !strings.Contains(r.stderr, "looks like a secret") {
			t.Errorf("%s in the commit message: submit exit %d\n%s%s", sec.Kind, r.code, r.stdout, r.stderr)
		}
	}
	if b := packtest.Git(t, up.Bare, "branch", "--list", "lesson/*"); b != "" {
		t.Errorf("the pack got branches %s", b)
	}
	pushed := packtest.Git(t, up.Bare, "log", "--all", "-p", "--format=%B")
	for _, sec := range secrettest.Secrets {
		if strings.Contains(pushed, sec.Value) {
			t.Errorf("%s reached the pack", sec.Kind)
		}
	}
}
