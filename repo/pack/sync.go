package pack

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Syncer brings subscribed packs into the cache and keeps lessons.lock.
type Syncer struct {
	Dirs  scope.Dirs
	Creds Credentials
	Now   func() time.Time // time.Now when nil
	// Parallel caps the packs synced at once; 4 when 0.
	Parallel int
	// Timeout bounds each network step of one pack (listing, fetching,
	// pushing); DefaultTimeout when 0.
	Timeout time.Duration
	// MaxDownload caps the bytes one fetch downloads; MaxDownloadBytes
	// when 0.
	MaxDownload int64
}

// Options choose what a Sync does.
type Options struct {
	// Frozen fails each pack whose lock entry would change, and writes no
	// lock file: what CI runs.
	Frozen bool
	// Update moves the lock of the packs named in Names (all when empty)
	// to the newest commit of their ref; the other packs are left alone.
	Update bool
	Names  []string
}

// Result is what a sync did to one pack.
type Result struct {
	Name     string
	URL      string // without credentials
	Ref      string
	Lock     string // the lessons.lock that pins it
	Commit   string // active after the sync, "" when nothing is
	Previous string // active before
	Lessons  int
	// Offline is why the remote could not be reached, when the cached
	// clone served instead.
	Offline error
	// Activated is true when a new version became active.
	Activated bool
	// Diff is what an update changed, nil when the pack was not updated.
	Diff *Diff
	Err  error
}

// Errors Sync puts in a Result, wrapped with what happened.
var (
	// ErrFrozen: the lock would change under Options.Frozen.
	ErrFrozen = errors.New("lessons.lock is out of date")
	// ErrGone: the locked commit is no longer on the remote.
	ErrGone = errors.New("the locked commit is gone from the remote")
	// ErrNotCached: offline, and the clone lacks what is needed.
	ErrNotCached = errors.New("nothing usable is cached")
)

// Sync brings every pack that configs subscribe to (global config first,
// then the project's) to the commit its lock pins, resolving and recording
// the packs that have no entry, then writes each lock file that changed,
// dropping the entries of packs no longer subscribed. Each pack's outcome
// is in its Result; the error is for lock files that could not be read or
// written, or that would change under Frozen.
func (s *Syncer) Sync(ctx context.Context, configs []Scoped, opts Options) ([]Result, error) {
	subs, _ := Subscriptions(configs...)
	// A pack shipped with the binary has nothing to fetch and no lock.
	subs = slices.DeleteFunc(subs, func(s Subscription) bool { _, ok := lessons.BuiltinPackName(s.URL); return ok })
	if opts.Update && len(opts.Names) > 0 {
		for _, name := range opts.Names {
			if !slices.ContainsFunc(subs, func(s Subscription) bool { return s.Name == name }) {
				return nil, fmt.Errorf("no subscribed pack is named %q", name)
			}
		}
		subs = slices.DeleteFunc(subs, func(s Subscription) bool { return !slices.Contains(opts.Names, s.Name) })
	}
	locks := map[string]*Lock{}
	for _, sc := range configs {
		l, err := ReadLock(LockPath(sc.Path))
		if err != nil {
			return nil, err
		}
		locks[LockPath(sc.Path)] = l
	}
	results := make([]Result, len(subs))
	entries := make([]*LockEntry, len(subs))
	sem := make(chan struct{}, cmp.Or(s.Parallel, 4))
	var wg sync.WaitGroup
	for i, sub := range subs {
		var entry *LockEntry
		if e := locks[sub.Lock].Entry(sub.Name); e != nil {
			c := *e
			entry = &c
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], entries[i] = s.syncOne(ctx, sub, entry, opts)
		})
	}
	wg.Wait()
	return results, writeLocks(configs, locks, subs, results, entries, opts.Frozen)
}

// writeLocks records the new entries and drops those of packs that their
// config no longer subscribes to. Under frozen it writes nothing and
// reports a lock that would change.
func writeLocks(configs []Scoped, locks map[string]*Lock, subs []Subscription, results []Result, entries []*LockEntry, frozen bool) error {
	var errs []error
	for _, sc := range configs {
		path := LockPath(sc.Path)
		old := locks[path]
		next := old.Clone()
		next.Keep(func(name string) bool {
			return slices.ContainsFunc(sc.Config.Packs, func(p lessons.PackRef) bool { return p.Name == name })
		})
		for i, sub := range subs {
			if sub.Lock == path && entries[i] != nil && results[i].Err == nil {
				next.Set(*entries[i])
			}
		}
		switch {
		case next.Equal(old):
		case frozen:
			errs = append(errs, fmt.Errorf("%s pins packs that its config no longer subscribes to: %w", path, ErrFrozen))
		default:
			if err := WriteLock(path, next); err != nil {
				errs = append(errs, fmt.Errorf("writing %s: %w", path, err))
			}
		}
	}
	return errors.Join(errs...)
}
