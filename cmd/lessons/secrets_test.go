package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine"
	"github.com/lessons-dev/lessons/engine/secret/secrettest"
)

// TestLiveCaptureKeepsNoSecret plants every kind of secret of secrettest
// in the built hook's three capture paths, each in a session of its own:
// a failed call that holds it in its command and its error, fixed by a
// changed call (the record, then the fix's nudge); and a call the user
// rejected with a reason that holds it (the rejection nudge). No secret
// may reach a nudge or anything under the state directory.
func TestLiveCaptureKeepsNoSecret(t *testing.T) {
	e := newEnv(t)
	e.writeManifest(t, lessons.DefaultConfig(), fixtureLessons())
	var shown strings.Builder
	records, nudges, rejections := 0, 0, 0
	for i, sec := range secrettest.Secrets {
		text := strings.ReplaceAll(sec.Text, "\n", " ")
		// The secret in the failing command itself.
		s := fmt.Sprintf("raw-%d", i)
		shown.Write(e.runHook(t, "claude", e.failed(s, text, "Exit code 1\nerror: refused: "+text)))
		raw := captureRecords(t, e, s)
		shown.WriteString(strings.Join(raw, "\n"))
		shown.Write(e.runHook(t, "claude", e.succeeded(s, text+" --retry 2")))
		// The secret in the error of a command of a family with no lesson.
		s = fmt.Sprintf("err-%d", i)
		shown.Write(e.runHook(t, "claude", e.failed(s, "make deploy-stage", "Exit code 2\nmake: *** "+text)))
		rec := captureRecords(t, e, s)
		records += len(rec)
		shown.WriteString(strings.Join(rec, "\n"))
		if got := nudge(t, e.runHook(t, "claude", e.succeeded(s, "make deploy-stage V=1"))); got != "" {
			nudges++
			shown.WriteString(got)
		}
		// The secret in the reason of a rejection.
		s = fmt.Sprintf("rej-%d", i)
		got := nudge(t, e.runHook(t, "claude", e.failed(s, "git push origin main", "The user doesn't want to proceed with this tool use. "+
			"The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). "+
			"To tell you how to proceed, the user said:\nnever run "+text)))
		if got != "" {
			rejections++
			shown.WriteString(got)
		}
	}
	n := len(secrettest.Secrets)
	if records < n || nudges < n || rejections < n {
		t.Fatalf("%d records, %d fix nudges, %d rejection nudges for %d secrets: a path was not taken, so the test proves little", records, nudges, rejections, n)
	}
	stored := shown.String() + treeText(t, e.state)
	if !strings.Contains(stored, "[REDACTED]") {
		t.Fatal("no [REDACTED] marker anywhere: nothing was captured")
	}
	for _, sec := range secrettest.Secrets {
		if strings.Contains(stored, sec.Value) {
			t.Errorf("%s (%s) reached a capture record or a nudge", sec.Kind, sec.Value)
		}
	}
}

// captureRecords are the session's failures on record, as text: the
// fix removes them.
func captureRecords(t *testing.T, e *env, session string) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(e.state, "sessions", engine.SessionHash(session)+".capture", "f-*"))
	var out []string
	for _, p := range paths {
		out = append(out, string(must(os.ReadFile(p))))
	}
	return out
}

// treeText is every file's name and content under dir.
func treeText(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + "\n")
		if d.Type().IsRegular() {
			b.Write(must(os.ReadFile(p)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
