package pack

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
)

// DefaultTimeout bounds each network step of a sync, update or submit
// (listing the remote, fetching, pushing) when Syncer.Timeout is 0; the
// config key networkTimeoutSeconds sets it.
const DefaultTimeout = 60 * time.Second

// MaxDownloadBytes caps what one fetch may download when
// Syncer.MaxDownload is 0: twice what the lessons of a version may hold
// (MaxPackBytes), room for compressed history, so that a remote serving a
// huge object is cut off while downloading, not after.
const MaxDownloadBytes = 2 * MaxPackBytes

// ErrTooBig is returned, wrapped, when a fetch passes the download cap.
var ErrTooBig = errors.New("the download passed its size cap")

// limits are the bounds on a clone's network steps.
type limits struct {
	timeout     time.Duration
	maxDownload int64
}

func (s *Syncer) limits() limits {
	return limits{timeout: cmp.Or(s.Timeout, DefaultTimeout), maxDownload: cmp.Or(s.MaxDownload, MaxDownloadBytes)}
}

// step runs one network step under the clone's deadline. The error of a
// step that ran out of time says so, whatever the transport made of the
// cancellation, and wraps context.DeadlineExceeded.
func (c *clone) step(ctx context.Context, doing string, run func(context.Context) error) error {
	sctx, cancel := context.WithTimeout(ctx, c.limits.timeout)
	defer cancel()
	err := run(sctx)
	if err != nil && errors.Is(sctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		err = fmt.Errorf("%w: the remote did not finish within %v (networkTimeoutSeconds; raise it, or LESSONS_NETWORK_TIMEOUT_SECONDS, for a slow remote)",
			context.DeadlineExceeded, c.limits.timeout)
	}
	if err != nil {
		return c.netErr(doing, err)
	}
	return nil
}

// capped is the clone's storage as a fetch sees it: packs written through
// it fail once they pass max bytes, which ends the download.
type capped struct {
	storage.Storer
	max int64
}

// PackfileWriter is how go-git stores a fetched pack: the stream is
// copied into it as it arrives.
func (s capped) PackfileWriter() (io.WriteCloser, error) {
	pw, ok := s.Storer.(storer.PackfileWriter)
	if !ok {
		return nil, errors.New("the clone's storage cannot take a pack")
	}
	w, err := pw.PackfileWriter()
	if err != nil {
		return nil, err
	}
	return &cappedWriter{w: w, max: s.max}, nil
}

type cappedWriter struct {
	w   io.WriteCloser
	max int64
	n   atomic.Int64
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if n := w.n.Add(int64(len(p))); n > w.max {
		return 0, fmt.Errorf("%w: more than %d MiB; a pack's lessons may hold %d MiB", ErrTooBig, w.max>>20, MaxPackBytes>>20)
	}
	return w.w.Write(p)
}

func (w *cappedWriter) Close() error { return w.w.Close() }

// dropPartialPacks removes what a fetch that failed half-way left in the
// clone: go-git keeps its temporary pack file when the stream breaks.
// It runs under the pack's file lock, so no other fetch is writing one.
func (c *clone) dropPartialPacks() {
	dir := filepath.Join(c.dir, "objects", "pack")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "tmp_") {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
