package pack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// The cache clone keeps the remote's branches under refs/remotes/origin
// and its tags as they are, both forced: the remote is the authority.
var fetchSpecs = []config.RefSpec{
	"+refs/heads/*:refs/remotes/origin/*",
	"+refs/tags/*:refs/tags/*",
}

const originHead = plumbing.ReferenceName("refs/remotes/origin/HEAD")

// clone is a pack's bare repository in the cache. It is used under the
// pack's file lock only.
type clone struct {
	dir    string
	url    string
	auth   auth
	repo   *git.Repository
	limits limits
}

// openClone opens the bare clone in dir, creating it on first use. The
// clone's config records the URL without credentials; the real one is
// only held in memory.
func openClone(dir, url string, a auth, lim limits) (*clone, error) {
	repo, err := git.PlainOpen(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		repo, err = git.PlainInit(dir, true)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the pack's clone %s: %w", dir, err)
	}
	cfg, err := repo.Config()
	if err != nil {
		return nil, fmt.Errorf("reading %s/config: %w", dir, err)
	}
	want := &config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{Redact(url)}, Fetch: fetchSpecs}
	if old, ok := cfg.Remotes[git.DefaultRemoteName]; !ok || len(old.URLs) != 1 || old.URLs[0] != want.URLs[0] {
		cfg.Remotes[git.DefaultRemoteName] = want
		if err := repo.SetConfig(cfg); err != nil {
			return nil, fmt.Errorf("writing %s/config: %w", dir, err)
		}
	}
	return &clone{dir: dir, url: url, auth: a, repo: repo, limits: lim}, nil
}

// remote is the go-git remote with the real URL.
func (c *clone) remote() *git.Remote {
	return git.NewRemote(c.repo.Storer, c.remoteConfig())
}

func (c *clone) remoteConfig() *config.RemoteConfig {
	return &config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{c.url}, Fetch: fetchSpecs}
}

// refs are a remote's branches and tags, in the remote's own names
// (refs/heads/…, refs/tags/…), tags peeled to the commit they name.
type refs struct {
	head  plumbing.ReferenceName // the default branch
	names map[plumbing.ReferenceName]plumbing.Hash
}

// refresh lists the remote and fetches only when a branch or tag moved:
// an up-to-date pack costs one round trip. It returns the remote's refs.
func (c *clone) refresh(ctx context.Context) (refs, error) {
	var listed []*plumbing.Reference
	err := c.step(ctx, "listing", func(ctx context.Context) (err error) {
		listed, err = c.remote().ListContext(ctx, &git.ListOptions{Auth: c.auth.method, PeelingOption: git.AppendPeeled})
		return err
	})
	if err != nil {
		return refs{}, err
	}
	rr := refs{names: map[plumbing.ReferenceName]plumbing.Hash{}}
	for _, r := range listed {
		name := r.Name()
		switch {
		case name == plumbing.HEAD && r.Type() == plumbing.SymbolicReference:
			rr.head = r.Target()
		case name.IsBranch():
			rr.names[name] = r.Hash()
		case name.IsTag():
			if base, peeled := strings.CutSuffix(name.String(), "^{}"); peeled {
				rr.names[plumbing.ReferenceName(base)] = r.Hash()
			} else if _, ok := rr.names[name]; !ok {
				rr.names[name] = r.Hash()
			}
		}
	}
	if len(rr.names) == 0 {
		return refs{}, fmt.Errorf("%s has no branches or tags yet", Redact(c.url))
	}
	local, err := c.localRefs()
	if err != nil {
		return refs{}, err
	}
	if !sameRefs(local.names, rr.names) {
		err := c.step(ctx, "fetching", func(ctx context.Context) error {
			// The fetch writes through a capped storage, so that a huge
			// pack ends the download once it passes the cap.
			r := git.NewRemote(capped{c.repo.Storer, c.limits.maxDownload}, c.remoteConfig())
			err := r.FetchContext(ctx, &git.FetchOptions{
				RefSpecs: fetchSpecs, Auth: c.auth.method, Tags: git.NoTags, Force: true, Prune: true,
			})
			// go-git reports "nothing to fetch" as an error.
			if errors.Is(err, git.NoErrAlreadyUpToDate) {
				return nil
			}
			return err
		})
		if err != nil {
			c.dropPartialPacks()
			return refs{}, err
		}
	}
	if rr.head != "" {
		target := plumbing.ReferenceName("refs/remotes/origin/" + strings.TrimPrefix(rr.head.String(), "refs/heads/"))
		if err := c.repo.Storer.SetReference(plumbing.NewSymbolicReference(originHead, target)); err != nil {
			return refs{}, err
		}
	}
	return rr, nil
}

// sameRefs reports whether the clone already holds every remote ref at the
// remote's commit (a tag may be held as its tag object, so tags compare
// on the peeled commit) and nothing the remote dropped.
func sameRefs(local, remote map[plumbing.ReferenceName]plumbing.Hash) bool {
	if len(local) != len(remote) {
		return false
	}
	for name, h := range remote {
		if local[name] != h {
			return false
		}
	}
	return true
}

// localRefs are the refs the clone fetched last time, in the remote's
// names: what an offline sync resolves against.
func (c *clone) localRefs() (refs, error) {
	rr := refs{names: map[plumbing.ReferenceName]plumbing.Hash{}}
	iter, err := c.repo.Storer.IterReferences()
	if err != nil {
		return rr, err
	}
	err = iter.ForEach(func(r *plumbing.Reference) error {
		name := r.Name()
		switch {
		case name == originHead && r.Type() == plumbing.SymbolicReference:
			rr.head = plumbing.NewBranchReferenceName(strings.TrimPrefix(r.Target().String(), "refs/remotes/origin/"))
		case r.Type() != plumbing.HashReference:
		case strings.HasPrefix(name.String(), "refs/remotes/origin/"):
			rr.names[plumbing.NewBranchReferenceName(strings.TrimPrefix(name.String(), "refs/remotes/origin/"))] = r.Hash()
		case name.IsTag():
			rr.names[name] = c.peel(r.Hash())
		}
		return nil
	})
	return rr, err
}

// peel follows annotated tags to the object they name.
func (c *clone) peel(h plumbing.Hash) plumbing.Hash {
	for range 10 {
		tag, err := c.repo.TagObject(h)
		if err != nil {
			return h
		}
		h = tag.Target
	}
	return h
}

var fullHash = regexp.MustCompile(`^[0-9a-f]{40}$`)

// resolve finds the commit that ref names among rr: "" is the default
// branch; otherwise a full commit hash, a full ref name, a branch or a tag.
func (c *clone) resolve(ref string, rr refs) (plumbing.Hash, error) {
	var candidates []plumbing.ReferenceName
	switch {
	case ref == "":
		if rr.head == "" {
			return plumbing.ZeroHash, errors.New("the remote names no default branch: set a ref")
		}
		candidates = []plumbing.ReferenceName{rr.head}
	case fullHash.MatchString(ref):
		return plumbing.NewHash(ref), nil
	case strings.HasPrefix(ref, "refs/"):
		candidates = []plumbing.ReferenceName{plumbing.ReferenceName(ref)}
	default:
		candidates = []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)}
	}
	for _, name := range candidates {
		if h, ok := rr.names[name]; ok {
			return h, nil
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("no branch or tag %q on %s", ref, Redact(c.url))
}

// reachable reports whether commit is in the history of any of rr's refs:
// a locked commit that is not has been force-pushed away.
func (c *clone) reachable(commit plumbing.Hash, rr refs) bool {
	seen := map[plumbing.Hash]bool{}
	var queue []plumbing.Hash
	for _, h := range rr.names {
		queue = append(queue, h)
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if h == commit {
			return true
		}
		if seen[h] {
			continue
		}
		seen[h] = true
		if cm, err := object.GetCommit(c.repo.Storer, h); err == nil {
			queue = append(queue, cm.ParentHashes...)
		}
	}
	return false
}

// commit returns the commit object h, or an error saying it is not cached.
func (c *clone) commit(h plumbing.Hash) (*object.Commit, error) {
	cm, err := c.repo.CommitObject(h)
	if err != nil {
		return nil, fmt.Errorf("commit %s is not in the cached clone: %w", short(h.String()), err)
	}
	return cm, nil
}

// ErrAuth is returned, wrapped, when the remote refused the credentials.
var ErrAuth = errors.New("authentication failed")

// ErrUnreachable is returned, wrapped, when the remote could not be
// reached at all: offline, server down, name not resolved.
var ErrUnreachable = errors.New("remote unreachable")

// netErr classifies a transport error and keeps secrets out of it.
func (c *clone) netErr(doing string, err error) error {
	var kind error
	var netErr net.Error
	hint := ""
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed),
		errors.Is(err, transport.ErrInvalidAuthMethod):
		kind = ErrAuth
		hint = " (for HTTPS set LESSONS_GIT_TOKEN and name the host in LESSONS_GIT_TOKEN_HOSTS, or GITHUB_TOKEN, or ~/.netrc; for SSH ssh-agent or LESSONS_SSH_KEY)"
	case errors.As(err, &netErr), errors.Is(err, context.DeadlineExceeded):
		kind = ErrUnreachable
	case strings.Contains(err.Error(), "knownhosts: "):
		hint = " (the server's host key is not the one in known_hosts: check it, then add it with " +
			"ssh-keyscan HOST >> ~/.ssh/known_hosts, or point SSH_KNOWN_HOSTS at a file that has it)"
	}
	if kind == nil {
		err = fmt.Errorf("%s %s: %w%s", doing, Redact(c.url), err, hint)
	} else {
		err = fmt.Errorf("%s %s: %w: %w%s", doing, Redact(c.url), kind, err, hint)
	}
	return scrub(err, c.url, c.auth.secrets)
}

// short abbreviates a commit hash for messages.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
