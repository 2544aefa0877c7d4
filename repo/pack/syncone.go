package pack

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/gofrs/flock"
)

// lockWait bounds how long a command waits for another one using the same
// pack's clone.
const lockWait = 2 * time.Minute

// syncOne syncs one pack under its file lock and returns its result and
// the lock entry to record (nil to leave the lock as it is).
func (s *Syncer) syncOne(ctx context.Context, sub Subscription, entry *LockEntry, opts Options) (Result, *LockEntry) {
	res := Result{Name: sub.Name, URL: Redact(sub.URL), Ref: sub.Ref, Lock: sub.Lock}
	fail := func(err error) (Result, *LockEntry) {
		res.Err = err
		res.Commit = res.Previous
		return res, nil
	}
	if err := CheckName(sub.Name); err != nil {
		return fail(err)
	}
	// A lock entry pins the pack only while it is for the same URL and ref.
	pinned := entry != nil && entry.URL == res.URL && entry.Ref == sub.Ref && !opts.Update
	if opts.Frozen && !pinned {
		return fail(fmt.Errorf("%s has no entry for pack %s at %s (ref %q): %w; run `lessons sync` and commit it",
			sub.Lock, sub.Name, res.URL, sub.Ref, ErrFrozen))
	}
	packDir := s.Dirs.PackDir(sub.Name, filepath.Dir(sub.Lock))
	root := s.Dirs.PackRoot(sub.Name)
	unlock, err := lockDir(ctx, root)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	active, err := ReadActive(packDir)
	if err != nil {
		return fail(err)
	}
	if active != nil {
		res.Previous = active.Commit
	}
	a, err := s.Creds.For(sub.URL)
	if err != nil {
		return fail(err)
	}
	c, err := openClone(filepath.Join(root, "repo"), sub.URL, a, s.limits())
	if err != nil {
		return fail(err)
	}
	rr, err := c.refresh(ctx)
	switch {
	case err == nil:
	case !errors.Is(err, ErrUnreachable):
		return fail(err)
	case opts.Update:
		return fail(fmt.Errorf("cannot update pack %s: %w", sub.Name, err))
	default:
		res.Offline = err
		if rr, err = c.localRefs(); err != nil {
			return fail(err)
		}
		if len(rr.names) == 0 {
			return fail(fmt.Errorf("pack %s: %w, and %w: sync once online", sub.Name, res.Offline, ErrNotCached))
		}
	}

	var target plumbing.Hash
	if pinned {
		target = plumbing.NewHash(entry.Commit)
		if res.Offline == nil && !c.reachable(target, rr) {
			return fail(fmt.Errorf("pack %s: commit %s, pinned in %s, is on no branch or tag of %s (force-pushed?): %w; %s; run `lessons update %s` to pin the newest commit of its ref",
				sub.Name, short(entry.Commit), sub.Lock, res.URL, ErrGone, keeping(active), sub.Name))
		}
	} else if target, err = c.resolve(sub.Ref, rr); err != nil {
		if res.Offline != nil {
			err = fmt.Errorf("%w (%w)", err, ErrNotCached)
		}
		return fail(fmt.Errorf("pack %s: %w", sub.Name, err))
	}

	var hash string
	if active != nil && active.Commit == target.String() && active.URL == res.URL &&
		(!pinned || active.Hash == entry.Hash) && verifyActive(packDir, active.Hash) {
		hash, res.Lessons = active.Hash, active.Lessons
	} else {
		v, err := c.readVersion(target)
		if err != nil {
			if res.Offline != nil {
				err = fmt.Errorf("%w (%w)", err, ErrNotCached)
			}
			return fail(fmt.Errorf("pack %s: %w; %s", sub.Name, err, keeping(active)))
		}
		if pinned && entry.Hash != "" && v.Hash != entry.Hash {
			return fail(fmt.Errorf("pack %s: the lessons of commit %s hash to %s, but %s says %s; %s",
				sub.Name, short(entry.Commit), v.Hash, sub.Lock, entry.Hash, keeping(active)))
		}
		info := Active{Name: sub.Name, URL: res.URL, Ref: sub.Ref, ActivatedAt: s.now()}
		if err := activate(s.Dirs.PackLink(sub.Name, filepath.Dir(sub.Lock)), v, info); err != nil {
			return fail(fmt.Errorf("pack %s: %w; %s", sub.Name, err, keeping(active)))
		}
		hash, res.Lessons, res.Activated = v.Hash, len(v.Files), true
	}
	if opts.Frozen && entry.Hash != hash {
		return fail(fmt.Errorf("%s records no hash for pack %s: %w; run `lessons sync` and commit it", sub.Lock, sub.Name, ErrFrozen))
	}
	res.Commit = target.String()
	if opts.Update {
		old := plumbing.ZeroHash
		if entry != nil {
			old = plumbing.NewHash(entry.Commit)
		}
		d := diffSlugs(c.lessonBlobs(old), c.lessonBlobs(target))
		res.Diff = &d
	}
	if res.Offline != nil && opts.Frozen {
		res.Err = fmt.Errorf("pack %s: --frozen cannot check the lock against the remote: %w", sub.Name, res.Offline)
		return res, nil
	}
	if res.Offline == nil {
		if err := markSynced(root, s.now()); err != nil {
			return fail(err)
		}
	}
	return res, &LockEntry{Name: sub.Name, URL: res.URL, Ref: sub.Ref, Commit: target.String(), Hash: hash}
}

// keeping says what stays active after a failure.
func keeping(active *Active) string {
	if active == nil {
		return "nothing of it is active"
	}
	return "keeping " + short(active.Commit) + " active"
}

func (s *Syncer) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// lockDir takes the file lock of a pack's cache directory, waiting for
// another command that holds it, and returns its release.
func lockDir(ctx context.Context, root string) (func(), error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	fl := flock.New(filepath.Join(root, "lock"))
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if !ok || err != nil {
		return nil, fmt.Errorf("waiting for the lock %s held by another lessons command: %w", fl.Path(), cmp.Or(err, ctx.Err(), errors.New("not acquired")))
	}
	return func() { _ = fl.Unlock() }, nil
}
