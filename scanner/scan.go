package scanner

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Options configure Scan; the zero value of every field but StateDir has
// a sensible default.
type Options struct {
	// StateDir is the user's lessons state directory (required).
	StateDir string
	// Paths are the files and directories to scan (see DefaultPaths).
	Paths []string
	// Full forgets every file's state and reads everything again.
	Full bool
	// Since skips files not modified in this long (0: no limit).
	Since time.Duration
	// Workers is how many files are parsed at once (default GOMAXPROCS).
	Workers int
	// Weights score candidates (default DefaultWeights).
	Weights *Weights
	// MaxLineBytes caps a line's length; longer lines are skipped and
	// counted (default 8 MiB).
	MaxLineBytes int
	// MaxDocumentBytes caps a whole-file JSON session (default 64 MiB).
	MaxDocumentBytes int64
	// IdleAfter is how long a session file must go unmodified before its
	// unresolved failures are settled (default 10 minutes): until then
	// a retry or a correction may still be written.
	IdleAfter time.Duration
	// Progress receives a progress bar when IsTerminal is set.
	Progress   io.Writer
	IsTerminal bool
	// Wait makes Scan wait for a running scan instead of returning ErrBusy.
	Wait bool
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Known returns the active lessons of every scope; a new candidate
	// that repeats one of them adds its evidence to the lesson's record
	// (StatusDuplicate) instead of waiting for review. It is called at
	// most once, and only when something new was found. Nil: none.
	Known func() []lessons.Lesson
}

func (o Options) withDefaults() Options {
	o.Workers = cmp.Or(o.Workers, runtime.GOMAXPROCS(0))
	o.MaxLineBytes = cmp.Or(o.MaxLineBytes, 8<<20)
	o.MaxDocumentBytes = cmp.Or(o.MaxDocumentBytes, 64<<20)
	o.IdleAfter = cmp.Or(o.IdleAfter, 10*time.Minute)
	if o.Weights == nil {
		w := DefaultWeights()
		o.Weights = &w
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Report is what one scan did. Counts are for this scan, except Agents,
// which covers everything scanned so far.
type Report struct {
	// Files is how many session files were considered; Unchanged of
	// them cost a stat and nothing more.
	Files     int `json:"files"`
	Unchanged int `json:"unchanged"`
	// Formats counts what was read, per detected format.
	Formats map[Format]*FormatCount `json:"formats"`
	Skipped Skipped                 `json:"skipped"`
	// Tags, Malformed and Templates count #lesson blocks: well-formed
	// ones, broken ones, and the protocol's own placeholder example.
	Tags      int `json:"tags"`
	Malformed int `json:"malformedTags"`
	Templates int `json:"templateTags"`
	// Findings is how many mistakes were detected; NewCandidates and
	// UpdatedCandidates how the store changed.
	Findings          int           `json:"findings"`
	NewCandidates     int           `json:"newCandidates"`
	UpdatedCandidates int           `json:"updatedCandidates"`
	Agents            []AgentReport `json:"agents"`
	Duration          time.Duration `json:"durationNs"`
	// Errors lists the first problems met (files that vanished or could
	// not be read); the scan went on.
	Errors []string `json:"errors,omitempty"`
}

// FormatCount is what was read of one format.
type FormatCount struct {
	Files int   `json:"files"`
	Lines int   `json:"lines"`
	Bytes int64 `json:"bytes"`
}

// Skipped counts what a scan left out.
type Skipped struct {
	InvalidLines    int `json:"invalidLines"`
	OverlongLines   int `json:"overlongLines"`
	UnknownFiles    int `json:"unknownFiles"`
	UnreadableFiles int `json:"unreadableFiles"`
	OversizedFiles  int `json:"oversizedFiles"`
}

// AgentReport says whether an agent follows the #lesson protocol: of the
// mistakes found in its sessions, how many it tagged itself.
type AgentReport struct {
	Agent    string `json:"agent"`
	Sessions int    `json:"sessions"`
	Tags     int    `json:"tags"`
	// HeuristicOnly counts heuristic detections the agent did not tag.
	HeuristicOnly int `json:"heuristicOnly"`
	// Compliance is Tags / (Tags + HeuristicOnly), 0 with neither.
	Compliance float64 `json:"compliance"`
}

const maxReportErrors = 20

// Scan reads the session logs under opts.Paths that changed since the last
// scan, and merges what it finds into the candidate store. It returns
// ErrBusy when another scan holds the lock (unless opts.Wait). Problems
// with single files are counted in the report, never fatal.
func Scan(ctx context.Context, opts Options) (Report, error) {
	if opts.StateDir == "" {
		return Report{}, errors.New("scan: no state directory")
	}
	opts = opts.withDefaults()
	start := time.Now()
	lock, err := lockState(ctx, opts.StateDir, opts.Wait)
	if err != nil {
		return Report{}, err
	}
	defer lock.Unlock()
	st, err := loadState(opts.StateDir)
	if err != nil {
		return Report{}, err
	}
	if opts.Full {
		st.Files = map[string]*fileState{}
	}
	rep := Report{Formats: map[Format]*FormatCount{}}
	jobs, total := plan(opts, st, &rep)

	store := OpenStore(opts.StateDir)
	m := &merger{store: store, weights: *opts.Weights, known: opts.Known}
	bar := newProgress(opts, total, len(jobs))
	results := make(chan fileResult)
	work := make(chan job)
	var wg sync.WaitGroup
	for range min(opts.Workers, max(len(jobs), 1)) {
		wg.Go(func() {
			for j := range work {
				r := scanFile(j, opts)
				r.mtime = j.mtime
				results <- r
			}
		})
	}
	go func() {
		defer close(work)
		for _, j := range jobs {
			select {
			case work <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	// Files are read biggest first, in parallel, but merged oldest first
	// (by when their session started, then by mtime and path), whatever
	// order they finished in: which fix a lesson keeps, whether it reads
	// as one task's, and which path a later session found must not
	// depend on the scheduler, nor on mtimes a copy of the logs reset.
	var done []fileResult
	found := 0
	for r := range results {
		rep.add(r)
		if r.err == nil {
			done = append(done, r)
			found += len(r.found)
		}
		bar.step(r.bytes, found)
	}
	slices.SortFunc(done, func(a, b fileResult) int {
		return cmp.Or(cmp.Compare(a.started(), b.started()), cmp.Compare(a.mtime, b.mtime), strings.Compare(a.path, b.path))
	})
	for _, r := range done {
		st.Files[r.path] = r.state
		if r.sessions != nil {
			for id := range dbSessions(st, r.path) {
				delete(st.Files, sessionKey(r.path, id))
			}
			for id, s := range r.sessions {
				st.Files[sessionKey(r.path, id)] = s
			}
		}
		if err := m.merge(r); err != nil {
			return rep, err
		}
	}
	bar.finish()
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	if err := m.write(); err != nil {
		return rep, err
	}
	rep.NewCandidates, rep.UpdatedCandidates = m.created, m.updated
	if len(jobs) > 0 || len(st.Files) != rep.Files {
		if err := saveState(opts.StateDir, st); err != nil {
			return rep, err
		}
	}
	if rep.Agents, err = compliance(st, m); err != nil {
		return rep, err
	}
	rep.Duration = time.Since(start)
	return rep, nil
}

// job is one file to read, with what the last scan left of it.
type job struct {
	path  string
	info  fs.FileInfo
	mtime int64
	prev  *fileState
	// sessions are the states of a database's sessions, by id.
	sessions map[string]*fileState
}

// plan walks the paths, drops the state of files that are gone, and
// returns the files that changed with their total size.
func plan(opts Options, st *scanState, rep *Report) ([]job, int64) {
	var jobs []job
	var total int64
	seen := map[string]bool{}
	now := opts.Now()
	walk(opts.Paths, func(p string, err error) {
		rep.Skipped.UnreadableFiles++
		rep.errorf("%s: %v", p, err)
	}, func(f candidateFile) {
		rep.Files++
		seen[f.path] = true
		size, mtime := f.info.Size(), f.info.ModTime().UnixNano()
		var sessions map[string]*fileState
		pending := false
		switch {
		case inStorage(f.path, "session"):
			mtime = max(mtime, opencodeMessagesMtime(f.path))
		case isOpencodeDB(filepath.Base(f.path)):
			size, mtime = dbStat(f.path, f.info)
			sessions = dbSessions(st, f.path)
			for id, s := range sessions {
				seen[sessionKey(f.path, id)] = true
				pending = pending || (s.Pending && idle(opts, s.MtimeNs))
			}
		}
		if opts.Since > 0 && now.Sub(time.Unix(0, mtime)) > opts.Since {
			rep.Unchanged++
			return
		}
		prev := st.Files[f.path]
		if prev != nil && prev.Size == size && prev.MtimeNs == mtime && prev.Inode == inode(f.info) &&
			!(prev.Pending && idle(opts, mtime)) && !pending {
			rep.Unchanged++
			return
		}
		jobs = append(jobs, job{path: f.path, info: f.info, mtime: mtime, prev: prev, sessions: sessions})
		total += size
	})
	for p := range st.Files {
		if !seen[p] && under(p, opts.Paths) {
			delete(st.Files, p)
		}
	}
	// Big files first, so one large session does not finish the scan alone.
	slices.SortFunc(jobs, func(a, b job) int { return cmp.Compare(b.info.Size(), a.info.Size()) })
	return jobs, total
}

func under(p string, roots []string) bool {
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// opencodeMessagesMtime is the mtime of a session's message folder, which
// changes when a message is added.
func opencodeMessagesMtime(sessionFile string) int64 {
	storage := filepath.Dir(filepath.Dir(filepath.Dir(sessionFile)))
	id := strings.TrimSuffix(filepath.Base(sessionFile), ".json")
	if fi, err := os.Stat(filepath.Join(storage, "message", id)); err == nil {
		return fi.ModTime().UnixNano()
	}
	return 0
}

func idle(opts Options, mtime int64) bool {
	return opts.Now().Sub(time.Unix(0, mtime)) >= opts.IdleAfter
}

func (r *Report) errorf(format string, args ...any) {
	if len(r.Errors) < maxReportErrors {
		r.Errors = append(r.Errors, fmt.Sprintf(format, args...))
	}
}

func (r *Report) add(fr fileResult) {
	for _, err := range fr.skipped {
		r.Skipped.UnreadableFiles++
		r.errorf("%v", err)
	}
	if fr.err != nil {
		r.Skipped.UnreadableFiles++
		r.errorf("%s: %v", fr.path, fr.err)
		return
	}
	if fr.oversized {
		r.Skipped.OversizedFiles++
	}
	if fr.state.Format == FormatUnknown {
		r.Skipped.UnknownFiles++
		return
	}
	fc := r.Formats[fr.state.Format]
	if fc == nil {
		fc = &FormatCount{}
		r.Formats[fr.state.Format] = fc
	}
	fc.Files += fr.files
	fc.Lines += fr.lines
	fc.Bytes += fr.bytes
	r.Skipped.InvalidLines += fr.invalid
	r.Skipped.OverlongLines += fr.overlong
	r.Tags += fr.tags
	r.Malformed += fr.malformed
	r.Templates += fr.templates
	r.Findings += len(fr.found)
}

// fileResult is what reading one file gave.
type fileResult struct {
	path  string
	mtime int64 // the file's, as planned: results merge oldest first (started)
	state *fileState
	// sessions are a database's sessions' new states, by id; nil for
	// files that hold one session.
	sessions  map[string]*fileState
	found     []Candidate
	commands  []string // a sample of the shell commands read
	folders   []string // a sample of the folders of files used that worked
	used      []string // and of the files
	files     int
	lines     int
	bytes     int64
	invalid   int
	overlong  int
	tags      int
	malformed int
	templates int
	oversized bool
	// skipped are files read with this one that could not be (an
	// opencode message that is a named pipe); the file still counts.
	skipped []error
	err     error
}

// started is when the file's session started, its log's first
// timestamp, else the file's mtime.
func (r *fileResult) started() int64 {
	if r.state != nil && r.state.StartNs != 0 {
		return r.state.StartNs
	}
	return r.mtime
}

// headBytes is how much of a file format detection looks at: the line
// reader's buffer, so detection costs no read of its own.
const headBytes = 64 << 10

// scanFile reads one file from where the last scan stopped (or from the
// start when it was truncated, replaced, or is read whole).
func scanFile(j job, opts Options) fileResult {
	if isOpencodeDB(filepath.Base(j.path)) {
		return scanOpencodeDB(j, opts)
	}
	r := fileResult{path: j.path, files: 1}
	size := j.info.Size()
	st := &fileState{Size: size, MtimeNs: j.mtime, Inode: inode(j.info)}
	r.state = st
	f, err := scope.OpenRegular(j.path)
	if err != nil {
		r.err = err
		return r
	}
	defer f.Close()
	a := newAnalyzer()
	isIdle := idle(opts, j.mtime)
	if p := j.prev; p != nil && p.Format.lineBased() && p.Inode == st.Inode && size >= p.Offset {
		st.Format, a.sess, st.StartNs = p.Format, p.Session, p.StartNs
		r.readLines(f, a, st, p.Offset, p.Line, opts, isIdle)
	} else {
		r.readNew(f, a, st, j.path, opts, isIdle)
	}
	if r.err != nil {
		return r
	}
	if isIdle {
		a.flush()
	} else if first := a.resumeAt(); first != nil {
		st.Pending = true
		if st.Format.lineBased() {
			st.Offset, st.Line = first.off, first.line-1
		}
	}
	st.Session = a.sess
	r.tags, r.malformed, r.templates = a.tags, a.malformed, a.templates
	r.commands, r.folders, r.used = a.commands, a.folders, a.files
	now := opts.Now()
	for _, fd := range a.findings {
		if c, ok := build(fd, a.sess, j.path, st.Format.Agent(), now); ok {
			r.found = append(r.found, c)
		}
	}
	return r
}

// readNew reads a file from its start: its first bytes name its format,
// and the same buffered reader goes on to read it.
func (r *fileResult) readNew(f *os.File, a *analyzer, st *fileState, path string, opts Options, isIdle bool) {
	lr := newLineReader(io.NewSectionReader(f, 0, st.Size), 0, 0, opts.MaxLineBytes)
	defer lr.release()
	head, _ := lr.r.Peek(headBytes)
	st.Format = detect(path, head)
	if t, ok := logStart(head); ok {
		st.StartNs = t.UnixNano()
	}
	geminiProject(st.Format, path, a)
	switch {
	case st.Format == FormatUnknown:
	case st.Format.lineBased():
		r.feed(lr, f, a, st, opts, isIdle)
	case st.Format == FormatOpencodeTree:
		r.files, r.err = opencodeTree(path, opts.MaxDocumentBytes, a, func(err error) { r.skipped = append(r.skipped, err) })
		r.bytes = st.Size
	case st.Size > opts.MaxDocumentBytes:
		r.oversized = true
	default:
		b, err := io.ReadAll(io.LimitReader(lr.r, st.Size))
		if err != nil {
			r.err = err
			return
		}
		r.bytes, r.lines = int64(len(b)), bytes.Count(b, []byte("\n"))+1
		switch st.Format {
		case FormatGeminiJSON:
			geminiJSON(b, a)
		case FormatOpencodeExport:
			opencodeExport(b, a)
		case FormatOpencodeRecord:
			opencodeRecord(b, a)
		}
	}
}

// readLines reads a line-based file from where the last scan stopped.
func (r *fileResult) readLines(f *os.File, a *analyzer, st *fileState, off int64, line int, opts Options, isIdle bool) {
	lr := newLineReader(io.NewSectionReader(f, off, st.Size-off), off, line, opts.MaxLineBytes)
	defer lr.release()
	r.feed(lr, f, a, st, opts, isIdle)
}

// feed gives the analyzer every complete line of lr.
func (r *fileResult) feed(lr *lineReader, f *os.File, a *analyzer, st *fileState, opts Options, isIdle bool) {
	off := lr.off
	lineFn := claudeLine
	switch st.Format {
	case FormatCodex:
		lineFn = newCodexReader().line
	case FormatGeminiJSONL:
		lineFn = geminiLines(geminiRewinds(io.NewSectionReader(f, off, st.Size-off), opts.MaxLineBytes))
	}
	for {
		b, start, complete, err := lr.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.err = err
			}
			break
		}
		if !complete && !isIdle {
			break // half-written: read it next time
		}
		r.lines++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if b[0] != '{' || b[len(b)-1] != '}' {
			r.invalid++
			continue
		}
		a.off = start
		lineFn(b, lr.line, a)
	}
	st.Offset, st.Line = lr.resume()
	r.bytes = st.Offset - off
	r.overlong = lr.overlong
}

// readCapped reads a whole regular file of at most max bytes.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := scope.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	return b, nil
}
