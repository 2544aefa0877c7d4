package pack

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/lessons-dev/lessons/engine/secret"
)

// Submission is a lesson proposed to a pack.
type Submission struct {
	Slug string
	// File is the lesson file's content, added as lessons/<slug>.yaml.
	File []byte
	// Message is the commit message; by default it names the lesson.
	Message string
	Author  object.Signature
}

// Submitted says where a submission went.
type Submitted struct {
	Branch string // "lesson/<slug>"
	Base   string // the remote's default branch it starts from
	Commit string
	// PullRequestURL opens the pull request; "" when the forge is unknown.
	PullRequestURL string
	// Replaced is true when the pack already had a different version of
	// the lesson.
	Replaced bool
}

// ErrSecret: a submission holds what looks like a secret.
var ErrSecret = errors.New("holds what looks like a secret")

// refuseSecrets returns an error naming every line of the submission
// where package secret finds a secret (by rule, never by value), in
// the file as written and decoded (YAML escapes undone).
func refuseSecrets(name string, sub Submission) error {
	var where []string
	for _, t := range []struct{ name, text string }{{name, string(sub.File)}, {"the commit message", sub.Message}} {
		for _, f := range secret.Find(t.text) {
			where = append(where, fmt.Sprintf("%s:%d (%s)", t.name, strings.Count(t.text[:f.Start], "\n")+1, f.Rule))
		}
	}
	if len(where) == 0 {
		return nil
	}
	return fmt.Errorf("%s %w: %s; remove it (lessons edit %s) and submit again", name, ErrSecret, strings.Join(where, ", "), sub.Slug)
}

// ErrBranchExists: the remote already has the submission's branch.
var ErrBranchExists = errors.New("the branch already exists on the remote")

// Submit proposes a lesson to the pack ref: in the pack's cache clone it
// creates branch lesson/<slug> from the remote's default branch, with one
// commit adding lessons/<slug>.yaml, and pushes that branch. The clone
// has no work tree, so nothing else in it changes. The lesson must pass
// the checks a sync applies to pack lessons, and neither it nor the
// message may hold a secret (an error wrapping ErrSecret).
func (s *Syncer) Submit(ctx context.Context, ref Subscription, sub Submission) (*Submitted, error) {
	if err := CheckName(ref.Name); err != nil {
		return nil, err
	}
	name := LessonsDir + "/" + sub.Slug + ".yaml"
	if problems := Check(map[string][]byte{name: sub.File}); len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	if err := refuseSecrets(name, sub); err != nil {
		return nil, err
	}
	root := s.Dirs.PackRoot(ref.Name)
	unlock, err := lockDir(ctx, root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	a, err := s.Creds.For(ref.URL)
	if err != nil {
		return nil, err
	}
	c, err := openClone(filepath.Join(root, "repo"), ref.URL, a, s.limits())
	if err != nil {
		return nil, err
	}
	rr, err := c.refresh(ctx)
	if err != nil {
		return nil, err
	}
	if rr.head == "" {
		return nil, fmt.Errorf("%s names no default branch to start from", Redact(ref.URL))
	}
	branch := plumbing.NewBranchReferenceName("lesson/" + sub.Slug)
	out := &Submitted{Branch: branch.Short(), Base: rr.head.Short()}
	if _, ok := rr.names[branch]; ok {
		return nil, fmt.Errorf("%s on %s: %w; a pull request may already be open for it", out.Branch, Redact(ref.URL), ErrBranchExists)
	}
	base, err := c.commit(rr.names[rr.head])
	if err != nil {
		return nil, err
	}
	tree, replaced, err := c.treeWith(base, sub.Slug+".yaml", sub.File)
	if err != nil {
		return nil, err
	}
	out.Replaced = replaced
	msg := sub.Message
	if msg == "" {
		verb := "Add"
		if replaced {
			verb = "Update"
		}
		msg = fmt.Sprintf("%s lesson %s\n\nSubmitted with `lessons submit`.\n", verb, sub.Slug)
	}
	author := sub.Author
	if author.When.IsZero() {
		author.When = s.now()
	}
	commit, err := c.store(&object.Commit{
		Author: author, Committer: author, Message: msg, TreeHash: tree, ParentHashes: []plumbing.Hash{base.Hash},
	})
	if err != nil {
		return nil, err
	}
	if err := c.repo.Storer.SetReference(plumbing.NewHashReference(branch, commit)); err != nil {
		return nil, err
	}
	spec := config.RefSpec(branch.String() + ":" + branch.String())
	err = c.step(ctx, "pushing "+out.Branch+" to", func(ctx context.Context) error {
		err := c.remote().PushContext(ctx, &git.PushOptions{RefSpecs: []config.RefSpec{spec}, Auth: c.auth.method})
		if errors.Is(err, git.NoErrAlreadyUpToDate) {
			return nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out.Commit = commit.String()
	out.PullRequestURL = PullRequestURL(ref.URL, out.Branch, out.Base)
	return out, nil
}

// treeWith returns the tree of base with lessons/<file> set to data, and
// whether it replaced a different file. A tree with no change is an error.
func (c *clone) treeWith(base *object.Commit, file string, data []byte) (plumbing.Hash, bool, error) {
	rootTree, err := base.Tree()
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	var lessonsTree object.Tree
	if e, err := rootTree.FindEntry(LessonsDir); err == nil {
		if e.Mode != filemode.Dir {
			return plumbing.ZeroHash, false, fmt.Errorf("%s in the pack is not a directory", LessonsDir)
		}
		t, err := object.GetTree(c.repo.Storer, e.Hash)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		lessonsTree = *t
	}
	blob, err := c.storeBlob(data)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	entries, old := setEntry(lessonsTree.Entries, object.TreeEntry{Name: file, Mode: filemode.Regular, Hash: blob})
	if old == blob {
		return plumbing.ZeroHash, false, fmt.Errorf("the pack already has this exact lesson in %s/%s", LessonsDir, file)
	}
	dir, err := c.store(&object.Tree{Entries: entries})
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	rootEntries, _ := setEntry(rootTree.Entries, object.TreeEntry{Name: LessonsDir, Mode: filemode.Dir, Hash: dir})
	h, err := c.store(&object.Tree{Entries: rootEntries})
	return h, !old.IsZero(), err
}

// setEntry returns entries with e added or replacing the entry of the
// same name, in git's order, and the hash it replaced.
func setEntry(entries []object.TreeEntry, e object.TreeEntry) ([]object.TreeEntry, plumbing.Hash) {
	out := make([]object.TreeEntry, 0, len(entries)+1)
	var old plumbing.Hash
	for _, x := range entries {
		if x.Name == e.Name {
			old = x.Hash
			continue
		}
		out = append(out, x)
	}
	out = append(out, e)
	// Git orders entries as if every directory name ended in "/".
	key := func(x object.TreeEntry) string {
		if x.Mode == filemode.Dir {
			return x.Name + "/"
		}
		return x.Name
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out, old
}

// encoder is a git object that go-git can encode.
type encoder interface {
	Encode(plumbing.EncodedObject) error
}

func (c *clone) store(o encoder) (plumbing.Hash, error) {
	obj := c.repo.Storer.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return c.repo.Storer.SetEncodedObject(obj)
}

func (c *clone) storeBlob(data []byte) (plumbing.Hash, error) {
	obj := c.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return c.repo.Storer.SetEncodedObject(obj)
}

// GitAuthor is the author git would record: GIT_AUTHOR_NAME and
// GIT_AUTHOR_EMAIL from getenv, else user.name and user.email from the
// user's global then system git config (read by go-git). Fields it cannot
// find are "".
func GitAuthor(getenv func(string) string) object.Signature {
	sig := object.Signature{Name: getenv("GIT_AUTHOR_NAME"), Email: getenv("GIT_AUTHOR_EMAIL")}
	for _, scope := range []config.Scope{config.GlobalScope, config.SystemScope} {
		if sig.Name != "" && sig.Email != "" {
			break
		}
		cfg, err := config.LoadConfig(scope)
		if err != nil {
			continue
		}
		sig.Name = cmp.Or(sig.Name, cfg.User.Name, cfg.Author.Name)
		sig.Email = cmp.Or(sig.Email, cfg.User.Email, cfg.Author.Email)
	}
	return sig
}
