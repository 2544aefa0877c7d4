package pack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

// TestSubmitOverHTTP pushes a submission through git http-backend with
// basic auth, the token coming from LESSONS_GIT_TOKEN or the URL, and
// checks that the token shows up in no result, error or cached file.
func TestSubmitOverHTTP(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base := packtest.StartHTTP(t, root, "x-access-token", token)
	mainBefore := packtest.Git(t, up.Bare, "rev-parse", "main")
	submission := func(slug string, n int) Submission {
		return Submission{
			Slug: slug, File: []byte(packtest.LessonYAML(slug, n)),
			Author: object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)},
		}
	}
	// noToken fails the test if the token is in what, or in a file of the
	// test's cache or lock.
	noToken := func(t *testing.T, e *testEnv, what ...any) {
		t.Helper()
		for _, w := range what {
			if s := fmt.Sprintf("%+v", w); strings.Contains(s, token) {
				t.Errorf("the token shows in %s", s)
			}
		}
		files := []string{LockPath(e.dirs.GlobalConfig())}
		filepath.WalkDir(e.dirs.Cache, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files = append(files, path)
			}
			return nil
		})
		for _, f := range files {
			if data, _ := os.ReadFile(f); strings.Contains(string(data), token) {
				t.Errorf("%s holds the token", f)
			}
		}
	}
	t.Run("LESSONS_GIT_TOKEN", func(t *testing.T) {
		e := newTestEnv(t)
		e.env["LESSONS_GIT_TOKEN"], e.env["LESSONS_GIT_TOKEN_HOSTS"] = token, "127.0.0.1"
		ref := Subscription{PackRef: lessons.PackRef{Name: "team", URL: base + "team.git"}}
		if r := e.one(Options{}, ref.PackRef); r.Err != nil {
			t.Fatalf("sync: %v", r.Err)
		}
		sub := submission("over-http", 42)
		got, err := e.syncer.Submit(t.Context(), ref, sub)
		if err != nil {
			t.Fatalf("Submit over HTTP: %v", err)
		}
		checkSubmitted(t, up, got, sub, mainBefore)
		_, again := e.syncer.Submit(t.Context(), ref, sub)
		if !errors.Is(again, ErrBranchExists) {
			t.Errorf("second submit of the same slug: err %v, want ErrBranchExists", again)
		}
		noToken(t, e, got, again)
	})
	t.Run("wrong token", func(t *testing.T) {
		e := newTestEnv(t)
		e.env["LESSONS_GIT_TOKEN"], e.env["LESSONS_GIT_TOKEN_HOSTS"] = "wrong-token-5678", "127.0.0.1"
		ref := Subscription{PackRef: lessons.PackRef{Name: "team", URL: base + "team.git"}}
		_, err := e.syncer.Submit(t.Context(), ref, submission("refused", 43))
		if !errors.Is(err, ErrAuth) || strings.Contains(err.Error(), "wrong-token-5678") {
			t.Errorf("submit with a wrong token: err %v, want ErrAuth without the token", err)
		}
		if out := packtest.Git(t, up.Bare, "branch", "--list", "lesson/refused"); out != "" {
			t.Errorf("a refused submit created %s", out)
		}
	})
	t.Run("token in the URL", func(t *testing.T) {
		e := newTestEnv(t)
		url := strings.Replace(base, "http://", "http://x-access-token:"+token+"@", 1) + "team.git"
		ref := Subscription{PackRef: lessons.PackRef{Name: "team", URL: url}}
		sub := submission("url-token", 44)
		got, err := e.syncer.Submit(t.Context(), ref, sub)
		if err != nil {
			t.Fatalf("Submit with the token in the URL: %v", err)
		}
		checkSubmitted(t, up, got, sub, mainBefore)
		_, again := e.syncer.Submit(t.Context(), ref, sub)
		if !errors.Is(again, ErrBranchExists) {
			t.Errorf("second submit of the same slug: err %v, want ErrBranchExists", again)
		}
		noToken(t, e, got, again)
	})
}
