package pack

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo/pack/packtest"
)

// checkSubmitted checks what Submit left on the remote up: the branch
// lesson/<slug> at the commit Submit reports, one commit over main as it
// was, adding the lesson's file and nothing else; main not moved; a
// sound repository.
func checkSubmitted(t *testing.T, up *packtest.Upstream, got *Submitted, sub Submission, mainBefore string) {
	t.Helper()
	branch := "lesson/" + sub.Slug
	if got.Branch != branch || got.Base != "main" || got.Replaced || got.PullRequestURL != "" {
		t.Errorf("Submit = %+v", got)
	}
	if n := packtest.Git(t, up.Bare, "rev-list", "--count", "main.."+branch); n != "1" {
		t.Errorf("%s has %s commits over main, want 1", branch, n)
	}
	if tip := packtest.Git(t, up.Bare, "rev-parse", branch); tip != got.Commit {
		t.Errorf("%s is at %s, Submit says %s", branch, tip, got.Commit)
	}
	if parent := packtest.Git(t, up.Bare, "rev-parse", branch+"^"); parent != mainBefore {
		t.Errorf("the commit's parent is %s, want main %s", parent, mainBefore)
	}
	file := "lessons/" + sub.Slug + ".yaml"
	if diff := packtest.Git(t, up.Bare, "diff", "--name-status", "main", branch); diff != "A\t"+file {
		t.Errorf("the commit changes %q, want only the lesson added", diff)
	}
	if content := packtest.Git(t, up.Bare, "show", branch+":"+file); content+"\n" != string(sub.File) {
		t.Errorf("pushed file differs:\n%s", content)
	}
	if main := packtest.Git(t, up.Bare, "rev-parse", "main"); main != mainBefore {
		t.Error("submit moved the remote's main")
	}
	packtest.Git(t, up.Bare, "fsck", "--strict")
}

func TestSubmitPushesOneCommitOnANewBranch(t *testing.T) {
	packtest.NeedGit(t)
	root := t.TempDir()
	up := packtest.NewUpstream(t, root, "team", packtest.PackFiles(2))
	base, _ := packtest.StartDaemon(t, root)
	e := newTestEnv(t)
	ref := Subscription{PackRef: lessons.PackRef{Name: "team", URL: base + "team.git"}}
	e.one(Options{}, ref.PackRef) // the clone exists, as it does for a subscriber
	mainBefore := packtest.Git(t, up.Bare, "rev-parse", "main")
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	sub := Submission{
		Slug: "new-lesson", File: []byte(packtest.LessonYAML("new-lesson", 42)),
		Author: object.Signature{Name: "Ada", Email: "ada@example.com", When: when},
	}

	got, err := e.syncer.Submit(t.Context(), ref, sub)
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	checkSubmitted(t, up, got, sub, mainBefore)
	if author := packtest.Git(t, up.Bare, "log", "-1", "--format=%an <%ae> %at", "lesson/new-lesson"); author != "Ada <ada@example.com> 1735787045" {
		t.Errorf("author = %q", author)
	}

	if _, err := e.syncer.Submit(t.Context(), ref, sub); !errors.Is(err, ErrBranchExists) {
		t.Errorf("second submit of the same slug: err %v, want ErrBranchExists", err)
	}
	bad := sub
	bad.Slug, bad.File = "bad", []byte(strings.Replace(packtest.LessonYAML("bad", 43), `'\bcmd43\b(?!.*--flag)'`, `'(a+)+$'`, 1))
	var verr *ValidationError
	if _, err := e.syncer.Submit(t.Context(), ref, bad); !errors.As(err, &verr) {
		t.Errorf("submit of a lesson a sync would reject: err %v, want ValidationError", err)
	}

	const key = "sk_live_51Hx9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2Ui"
	leaky := sub
	leaky.Slug = "leaky"
	leaky.File = []byte(strings.Replace(packtest.LessonYAML("leaky", 44), "or run it under timeout", "with STRIPE_KEY="+key+" set", 1))
	_, err = e.syncer.Submit(t.Context(), ref, leaky)
	if !errors.Is(err, ErrSecret) || !strings.Contains(err.Error(), "lessons/leaky.yaml:5") || strings.Contains(err.Error(), key) {
		t.Errorf("submit of a lesson holding a Stripe key: err %v, want ErrSecret naming lessons/leaky.yaml:5 and not the key", err)
	}
	if out := packtest.Git(t, up.Bare, "branch", "--list", "lesson/leaky"); out != "" {
		t.Errorf("the lesson holding a key was pushed: %q", out)
	}
}
