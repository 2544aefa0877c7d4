package repo

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	lessons "github.com/lessons-dev/lessons"
)

// newStore returns an initialized store in a temporary directory, with
// HOME pointed away from the user's git config.
func newStore(t *testing.T) Store {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	s := Store{Dir: filepath.Join(t.TempDir(), "lessons-home")}
	if created, err := s.Init(); err != nil || !created {
		t.Fatalf("Init() = %v, %v; want created", created, err)
	}
	return s
}

// history returns the commit messages of the store, newest first, read
// with go-git, and checks that git's command line counts as many.
func history(t *testing.T, s Store) []string {
	t.Helper()
	repo, err := git.PlainOpen(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	iter, err := repo.Log(&git.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	_ = iter.ForEach(func(c *object.Commit) error {
		msgs = append(msgs, strings.TrimSpace(c.Message))
		return nil
	})
	out, err := exec.Command("git", "-C", s.Dir, "log", "--oneline").Output()
	if err != nil {
		t.Fatalf("git log: %v", err)
	}
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != len(msgs) {
		t.Errorf("git log --oneline shows %d commits, go-git %d:\n%s", len(lines), len(msgs), out)
	}
	return msgs
}

// assertClean fails unless the store's worktree is clean.
func assertClean(t *testing.T, s Store) {
	t.Helper()
	repo, _ := git.PlainOpen(s.Dir)
	wt, _ := repo.Worktree()
	st, err := wt.Status()
	if err != nil || !st.IsClean() {
		t.Errorf("worktree not clean: %v %v", st, err)
	}
	if out, err := exec.Command("git", "-C", s.Dir, "status", "--porcelain").Output(); err != nil || len(out) > 0 {
		t.Errorf("git status --porcelain = %q, %v", out, err)
	}
}

func TestStoreInit(t *testing.T) {
	s := newStore(t)
	if msgs := history(t, s); len(msgs) != 1 || msgs[0] != initMessage {
		t.Errorf("history after Init = %q", msgs)
	}
	for _, p := range []string{s.LessonsDir(), s.ConfigPath()} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	head := func() string {
		out, _ := exec.Command("git", "-C", s.Dir, "rev-parse", "HEAD").Output()
		return string(out)
	}
	before := head()
	if created, err := s.Init(); err != nil || created {
		t.Errorf("second Init() = %v, %v; want nothing created", created, err)
	}
	if err := s.EnsureInit(); err != nil {
		t.Error(err)
	}
	if after := head(); after != before {
		t.Errorf("second Init moved HEAD from %s to %s", before, after)
	}
	if out, _ := exec.Command("git", "-C", s.Dir, "branch", "--show-current").Output(); strings.TrimSpace(string(out)) != "main" {
		t.Errorf("branch = %q, want main", out)
	}
	assertClean(t, s)
}

// add, update and remove are the global store's three changes, as the
// CLI makes them through Change.
func add(s Store, l *lessons.Lesson) (string, error) {
	return s.Change("add lesson "+l.Slug+": "+l.Summary, func() (string, error) { return CreateLesson(s.LessonsDir(), l) })
}

func update(s Store, l *lessons.Lesson) (string, error) {
	return s.Change("update lesson "+l.Slug+": "+l.Summary, func() (string, error) { return WriteLesson(s.LessonsDir(), l) })
}

func remove(s Store, l *lessons.Lesson) (string, error) {
	return s.Change("remove lesson "+l.Slug+": "+l.Summary, func() (string, error) { return RemoveLesson(s.LessonsDir(), l.Slug) })
}

func TestStoreAddUpdateRemove(t *testing.T) {
	s := newStore(t)
	l := fullLesson()

	path, err := add(s, l)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(s.LessonsDir(), l.Slug+".yaml") {
		t.Errorf("Add path = %s", path)
	}
	msgs := history(t, s)
	if want := "add lesson " + l.Slug + ": " + l.Summary; len(msgs) != 2 || msgs[0] != want {
		t.Errorf("history after Add = %q, want %q on top of the first commit", msgs, want)
	}
	assertClean(t, s)
	if _, err := add(s, l); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second Add = %v, want fs.ErrExist", err)
	}

	l.Summary = "rm -rf with an unset variable deletes from the root: always guard it"
	if _, err := update(s, l); err != nil {
		t.Fatal(err)
	}
	msgs = history(t, s)
	if want := "update lesson " + l.Slug + ": " + l.Summary; len(msgs) != 3 || msgs[0] != want {
		t.Errorf("history after Update = %q, want %q", msgs, want)
	}
	assertClean(t, s)
	if _, err := update(s, l); err != nil || len(history(t, s)) != 3 {
		t.Errorf("Update without a change = %v and %d commits, want no new commit", err, len(history(t, s)))
	}

	if _, err := remove(s, l); err != nil {
		t.Fatal(err)
	}
	msgs = history(t, s)
	if want := "remove lesson " + l.Slug + ": " + l.Summary; len(msgs) != 4 || msgs[0] != want {
		t.Errorf("history after Remove = %q, want %q", msgs, want)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("file after Remove: %v", err)
	}
	assertClean(t, s)
	if _, err := remove(s, l); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second Remove = %v, want fs.ErrNotExist", err)
	}
	if n := len(history(t, s)); n != 4 {
		t.Errorf("failed operations made commits: %d", n)
	}
}

func TestStoreAddRejectsInvalidLesson(t *testing.T) {
	s := newStore(t)
	l := fullLesson()
	l.Triggers.Commands = []string{"(?<=x"}
	if _, err := add(s, l); err == nil || !strings.Contains(err.Error(), "invalid regex") {
		t.Errorf("Add(invalid regex) = %v", err)
	}
	if entries, _ := os.ReadDir(s.LessonsDir()); len(entries) != 0 {
		t.Errorf("Add(invalid) wrote %v", entries)
	}
	if n := len(history(t, s)); n != 1 {
		t.Errorf("Add(invalid) made a commit: %d commits", n)
	}
	if _, err := LessonFile(s.LessonsDir(), "../config"); err == nil {
		t.Error("LessonFile accepted a slug naming a path outside the store")
	}
}

func TestStoreCommitConfig(t *testing.T) {
	s := newStore(t)
	if err := WriteConfig(s.ConfigPath(), lessons.Config{Disable: []string{"noisy-lesson-ab12"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit("disable lesson noisy-lesson-ab12", s.ConfigPath()); err != nil {
		t.Fatal(err)
	}
	if msgs := history(t, s); len(msgs) != 2 || msgs[0] != "disable lesson noisy-lesson-ab12" {
		t.Errorf("history = %q", msgs)
	}
	assertClean(t, s)
	if h, err := s.Commit("nothing", "config.yaml"); err != nil || !h.IsZero() || len(history(t, s)) != 2 {
		t.Errorf("Commit without a change = %v, %v; want no commit", h, err)
	}
	if _, err := s.Commit("outside", filepath.Join(s.Dir, "..", "x")); err == nil {
		t.Error("Commit accepted a path outside the store")
	}
}

func TestStoreAuthor(t *testing.T) {
	s := newStore(t)
	repo, _ := git.PlainOpen(s.Dir)
	head, _ := repo.Head()
	c, _ := repo.CommitObject(head.Hash())
	if c.Author.Name != defaultAuthorName || c.Author.Email != defaultAuthorEmail {
		t.Errorf("author without git config = %s <%s>", c.Author.Name, c.Author.Email)
	}
	home := os.Getenv("HOME")
	writeFiles(t, home, map[string]string{".gitconfig": "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n"})
	if _, err := add(s, fullLesson()); err != nil {
		t.Fatal(err)
	}
	head, _ = repo.Head()
	c, _ = repo.CommitObject(head.Hash())
	if c.Author.Name != "Ada Lovelace" || c.Author.Email != "ada@example.com" {
		t.Errorf("author with ~/.gitconfig = %s <%s>", c.Author.Name, c.Author.Email)
	}
}

func TestStoreEnsureInitOnFirstAdd(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	s := Store{Dir: filepath.Join(t.TempDir(), "fresh")}
	if _, err := add(s, fullLesson()); err != nil {
		t.Fatal(err)
	}
	if msgs := history(t, s); len(msgs) != 2 || msgs[1] != initMessage {
		t.Errorf("history = %q, want the first commit and the add", msgs)
	}
	assertClean(t, s)
}
