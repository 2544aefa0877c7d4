package scanner

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// The session reader replays what a scan reads: the same walk, the same
// format detection and the same parsers, but it keeps every tool call of
// a session with its outcome, and hands sessions over one at a time in
// the order they started. Only the sessions being read are in memory.

// Outcome is what became of a logged tool call.
type Outcome uint8

// Outcomes of a tool call. A failure the scanner reads as an answer (a
// grep that found nothing, a test that was false) is Fine.
const (
	OutcomeUnknown  Outcome = iota // the log has no result for it
	OutcomeFine                    // it worked
	OutcomeFailed                  // an error, a non-zero exit, a timeout or an interrupt
	OutcomeRejected                // the user refused it
	// OutcomeStopped: the agent ended the process on purpose (Ctrl-C
	// through its stdin tool, its kill tool, a kill of the process;
	// stopped.go), whatever the exit status said.
	OutcomeStopped
)

var outcomeNames = [...]string{"unknown", "fine", "failed", "rejected", "stopped"}

func (o Outcome) String() string { return outcomeNames[o] }

// LoggedCall is one tool call of a session, with what became of it.
type LoggedCall struct {
	Call
	// Line is the call's line in its file (or message index).
	Line    int
	Outcome Outcome
	// ExitCode is the command's exit status, or -1 when unknown.
	ExitCode int
	// Error is a failure's output (its head and tail), a rejection's
	// reason, or "interrupted by the user".
	Error string
	// Fix is the index, in the session's Calls, of the later call that
	// fixed this failure (the scanner's retry pairing: same tool, within
	// its window, a similar command or the same path, and it worked), or
	// -1. Every failed attempt of a chain of retries points at the fix.
	Fix int
	// AfterCompaction is set when the context was compacted since the
	// previous call.
	AfterCompaction bool
	// id is the call's id as logged.
	id string
}

// CopyKey is what tells a call copied into another log from a call made
// there: its id when the id is unique across sessions (a resumed or
// forked Claude Code session repeats the calls before it, ids and all),
// else "" (Gemini CLI's run_shell_command-1 is unique only within its
// session, and two sessions may make that call anew).
func (c *LoggedCall) CopyKey() string {
	if len(c.id) < minGlobalUID {
		return ""
	}
	return c.id
}

// LoggedSession is one session read whole.
type LoggedSession struct {
	// File is the log it was read from (for an opencode database,
	// path#session-id).
	File   string
	Format Format
	Agent  string
	Session
	// Start is when the session started: its first timestamp, else the
	// file's modification time.
	Start time.Time
	Calls []LoggedCall
	// Prompts are the prompts typed in the session, in order.
	Prompts []LoggedPrompt
	// Candidates are what a scan would propose from this session alone,
	// unscored; set only with ReadOptions.Candidates.
	Candidates []Candidate
	// CandidateCalls holds, for each of Candidates, the index in Calls
	// of the failed or rejected call it was learned from (for a #lesson
	// report, the failure it reports), or -1 when the log does not say.
	CandidateCalls []int
}

// ReadOptions configure ReadSessions; zero fields take the defaults of
// Options.
type ReadOptions struct {
	Paths []string
	// Since skips files not modified in this long (0: no limit).
	Since            time.Duration
	Workers          int
	MaxLineBytes     int
	MaxDocumentBytes int64
	// Candidates builds each session's candidates (redacted, as a scan
	// stores them), for replays that learn as they go.
	Candidates bool
	// Project, when set, is every session's project, whatever directory
	// its log names: a team's history of one repository worked in
	// several clones or machines (worktrees an agent made are one project
	// without it: lessons.ProjectOf).
	Project string

	Now func() time.Time
	// Progress receives a progress bar when IsTerminal is set.
	Progress   io.Writer
	IsTerminal bool
}

// ReadReport is what ReadSessions read, and what it could not.
type ReadReport struct {
	Files    int                     `json:"files"`
	Sessions int                     `json:"sessions"`
	Formats  map[Format]*FormatCount `json:"formats"`
	Skipped  Skipped                 `json:"skipped"`
	// Errors names the first problems met, with file and line.
	Errors []string `json:"errors,omitempty"`
}

func (r *ReadReport) errorf(format string, args ...any) {
	if len(r.Errors) < maxReportErrors {
		r.Errors = append(r.Errors, fmt.Sprintf(format, args...))
	}
}

// readJob is one session to read: a file, or one session of an opencode
// database.
type readJob struct {
	path  string
	size  int64
	start time.Time
	// dbSession is the id of a database session, "" for a file.
	dbSession string
	dbProject string
}

// readResult is one job's sessions (none for an unknown format or an
// unreadable file) and its counts.
type readResult[T any] struct {
	job      readJob
	format   Format
	out      []T
	sessions int
	files    int
	lines    int
	bytes    int64
	invalid  int
	overlong int
	errs     []string
	err      error
}

// ReadSessions reads the sessions under opts.Paths and calls work on each
// in a pool of goroutines, then emit with work's results in the order the
// sessions started, on the caller's goroutine. It stops at the first
// error emit returns, or when ctx ends. Files that cannot be read, or
// whose format is unknown, and lines that are not JSON records are
// counted and named in the report, never fatal.
func ReadSessions[T any](ctx context.Context, opts ReadOptions, work func(*LoggedSession) T, emit func(T) error) (ReadReport, error) {
	o := Options{Workers: opts.Workers, MaxLineBytes: opts.MaxLineBytes, MaxDocumentBytes: opts.MaxDocumentBytes, Now: opts.Now}.withDefaults()
	rep := ReadReport{Formats: map[Format]*FormatCount{}}
	jobs, total := planRead(ctx, opts, o, &rep)
	bar := newProgress(Options{Progress: opts.Progress, IsTerminal: opts.IsTerminal}, total, len(jobs))
	if bar.bar != nil {
		bar.bar.Describe("replaying")
	}
	defer bar.finish()

	// Workers take jobs in order; results wait in slots until every
	// earlier one was emitted. The window bounds what is held at once.
	window := 16 * o.Workers
	slots := make([]chan readResult[T], len(jobs))
	for i := range slots {
		slots[i] = make(chan readResult[T], 1)
	}
	sem := make(chan struct{}, window)
	ctx, cancel := context.WithCancel(ctx)
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range jobs {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range min(o.Workers, max(len(jobs), 1)) {
		wg.Go(func() {
			for i := range next {
				slots[i] <- readOne(jobs[i], o, opts, work)
			}
		})
	}
	defer func() { cancel(); wg.Wait() }() // stop the dispatcher first: it may wait for a slot
	for i := range jobs {
		var r readResult[T]
		select {
		case r = <-slots[i]:
		case <-ctx.Done():
			return rep, ctx.Err()
		}
		slots[i] = nil
		<-sem
		rep.addResult(r.format, r.job, r.files, r.lines, r.bytes, r.invalid, r.overlong, r.sessions, r.errs, r.err)
		for _, t := range r.out {
			if err := emit(t); err != nil {
				return rep, err
			}
		}
		if bar.bar != nil {
			_ = bar.bar.Add64(r.job.size)
		}
	}
	return rep, ctx.Err()
}

// planRead lists the sessions to read, oldest first, with their total
// size.
func planRead(ctx context.Context, opts ReadOptions, o Options, rep *ReadReport) ([]readJob, int64) {
	var jobs []readJob
	var total int64
	now := o.Now()
	walk(opts.Paths, func(p string, err error) {
		rep.Skipped.UnreadableFiles++
		rep.errorf("%s: %v", p, err)
	}, func(f candidateFile) {
		mtime := f.info.ModTime()
		if isOpencodeDB(filepath.Base(f.path)) {
			size, m := dbStat(f.path, f.info)
			if opts.Since > 0 && now.Sub(time.Unix(0, m)) > opts.Since {
				return
			}
			rep.Files++
			ss, err := listDBSessions(ctx, f.path)
			if err != nil {
				rep.Skipped.UnreadableFiles++
				rep.errorf("%s: opencode database: %v", f.path, err)
				return
			}
			for _, s := range ss {
				s.size = size / int64(max(len(ss), 1))
				jobs = append(jobs, s)
			}
			total += size
			return
		}
		if opts.Since > 0 && now.Sub(mtime) > opts.Since {
			return
		}
		rep.Files++
		jobs = append(jobs, readJob{path: f.path, size: f.info.Size(), start: mtime})
		total += f.info.Size()
	})
	// Each file's first timestamp, read by the workers at once.
	var wg sync.WaitGroup
	next := make(chan *readJob)
	for range o.Workers {
		wg.Go(func() {
			for j := range next {
				j.start = firstTime(j.path, j.start)
			}
		})
	}
	for i := range jobs {
		if jobs[i].dbSession == "" {
			next <- &jobs[i]
		}
	}
	close(next)
	wg.Wait()
	slices.SortStableFunc(jobs, func(a, b readJob) int {
		return cmp.Or(a.start.Compare(b.start), cmp.Compare(a.path, b.path), cmp.Compare(a.dbSession, b.dbSession))
	})
	return jobs, total
}

// firstTimeHead is how much of a file the first timestamp is looked for in.
const firstTimeHead = 16 << 10

// firstStamp finds the first timestamp a log carries, whatever the
// format calls it: an RFC 3339 string, or Unix milliseconds or seconds.
var firstStamp = regexp.MustCompile(`"(?:timestamp|startTime|created|time_created|createdAt)"\s*:\s*(?:"([0-9]{4}-[0-9]{2}-[0-9]{2}T[^"]{1,40})"|([0-9]{10,13})\b)`)

// firstTime is when the session in the file started, else mtime.
func firstTime(path string, mtime time.Time) time.Time {
	f, err := scope.OpenRegular(path)
	if err != nil {
		return mtime
	}
	defer f.Close()
	head := make([]byte, firstTimeHead)
	n, _ := io.ReadFull(f, head)
	if t, ok := logStart(head[:n]); ok {
		return t
	}
	return mtime
}

// logStart is the first timestamp in a log's first bytes.
func logStart(head []byte) (time.Time, bool) {
	return parseStamp(firstStamp.FindSubmatch(head[:min(len(head), firstTimeHead)]))
}

func parseStamp(m [][]byte) (time.Time, bool) {
	switch {
	case m == nil:
	case len(m[1]) > 0:
		if t, err := time.Parse(time.RFC3339Nano, string(m[1])); err == nil {
			return t, true
		}
	default:
		n, err := strconv.ParseInt(string(m[2]), 10, 64)
		if err != nil {
			break
		}
		if n > 1e12 {
			return time.UnixMilli(n), true
		}
		return time.Unix(n, 0), true
	}
	return time.Time{}, false
}

// listDBSessions lists an opencode database's sessions as jobs.
func listDBSessions(ctx context.Context, path string) ([]readJob, error) {
	db, tx, err := openDB(ctx, path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	defer tx.Rollback()
	var made bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'session')`).Scan(&made); err != nil || !made {
		return nil, err
	}
	rows, err := tx.Query(`SELECT id, directory, time_created FROM session`)
	if err != nil {
		return nil, fmt.Errorf("reading the session table: %w", err)
	}
	defer rows.Close()
	var out []readJob
	for rows.Next() {
		j := readJob{path: path}
		var created int64
		if err := rows.Scan(&j.dbSession, &j.dbProject, &created); err != nil {
			return nil, fmt.Errorf("reading the session table: %w", err)
		}
		j.start = time.UnixMilli(created)
		out = append(out, j)
	}
	return out, rows.Err()
}

// readOne reads one job and runs work on its session.
func readOne[T any](j readJob, o Options, ro ReadOptions, work func(*LoggedSession) T) readResult[T] {
	r := readResult[T]{job: j}
	cands := ro.Candidates
	c := newCollector(cands)
	var ls *LoggedSession
	if j.dbSession != "" {
		r.format = FormatOpencodeDB
		ls, r.err = c.readDBSession(j)
		r.files = 0
	} else {
		r.files = 1
		ls = c.readFile(j.path, o, &r.format, &r.lines, &r.bytes, &r.invalid, &r.overlong, &r.errs, &r.err)
	}
	if r.err != nil || ls == nil {
		return r
	}
	ls.Start = j.start
	if p := cmp.Or(ro.Project, lessons.ProjectOf(ls.Project)); p != ls.Project {
		ls.Dir, ls.Project = cmp.Or(ls.Dir, ls.Project), p // a name given to it, or the project its worktree stands for
	}
	if cands {
		now := o.Now()
		if !ls.Start.IsZero() {
			now = ls.Start // seen when the session ran: sessions read at once are built in no order
		}
		for _, fd := range c.a.findings {
			if cand, ok := build(fd, ls.Session, j.path, ls.Agent, now); ok {
				ls.Candidates = append(ls.Candidates, cand)
				ls.CandidateCalls = append(ls.CandidateCalls, c.callIndex(fd.Call))
			}
		}
	}
	r.sessions = 1
	r.out = []T{work(ls)}
	return r
}

func (rep *ReadReport) addResult(format Format, j readJob, files, lines int, bytes int64, invalid, overlong, sessions int, errs []string, err error) {
	rep.Sessions += sessions
	for _, e := range errs {
		rep.errorf("%s", e)
	}
	if err != nil {
		rep.Skipped.UnreadableFiles++
		rep.errorf("%s: %v", j.path, err)
		return
	}
	if format == FormatUnknown {
		rep.Skipped.UnknownFiles++
		rep.errorf("%s: not a session log of a known format; skipped", j.path)
		return
	}
	fc := rep.Formats[format]
	if fc == nil {
		fc = &FormatCount{}
		rep.Formats[format] = fc
	}
	fc.Files += files
	fc.Lines += lines
	fc.Bytes += bytes
	rep.Skipped.InvalidLines += invalid
	rep.Skipped.OverlongLines += overlong
}

// collector is the sink that keeps a session's calls. It hands every
// event to an analyzer as a scan would, and asks it which failure a
// working call fixes, so pairing is the heuristics' own.
type collector struct {
	a       *analyzer
	calls   []LoggedCall
	prompts []LoggedPrompt
	byID    map[string]int
	retryOf map[int]int // a failed retry → the attempt before it
	compact bool
	// tags: the analyzer reads the agent's text too, for the #lesson
	// reports among the session's candidates; pairing needs none of it.
	tags bool
}

func newCollector(tags bool) *collector {
	return &collector{a: newAnalyzer(), byID: map[string]int{}, retryOf: map[int]int{}, tags: tags}
}

func (c *collector) session() *Session { return &c.a.sess }

// callIndex is the index in calls of the call with this id, or -1.
func (c *collector) callIndex(id string) int {
	if i, ok := c.byID[id]; ok && id != "" {
		return i
	}
	return -1
}

func (c *collector) event(e Event) {
	switch e.Kind {
	case ToolCall:
		if e.Call != nil {
			if e.CallID != "" {
				if _, dup := c.byID[e.CallID]; dup {
					break // a record read twice
				}
				c.byID[e.CallID] = len(c.calls)
			}
			c.calls = append(c.calls, LoggedCall{Call: *e.Call, Line: e.Line, ExitCode: -1, Fix: -1,
				AfterCompaction: c.compact, id: e.CallID})
			c.compact = false
		}
	case ToolResult:
		c.result(e)
	case Compaction:
		c.compact = true
	case UserText:
		c.prompt(e)
	case Interrupt:
		i, ok := c.byID[e.CallID]
		if !ok && e.CallID == "" && c.a.lastCall != nil && !c.a.lastCall.done && len(c.calls) > 0 {
			i, ok = len(c.calls)-1, true
		}
		if ok && c.calls[i].Outcome == OutcomeUnknown {
			c.calls[i].Outcome = OutcomeFailed
			c.calls[i].Error = "interrupted by the user"
		}
	case Rejection:
		if te, ok := c.a.toolError(e); ok {
			c.event(te)
			return
		}
		if i, ok := c.byID[e.CallID]; ok {
			c.calls[i].Outcome = OutcomeRejected
			c.calls[i].Error = strings.TrimSpace(e.Text)
		}
	case AssistantText:
		if !c.tags {
			return
		}
	}
	c.a.event(e)
}

// result records a call's outcome and, for a call that worked, the
// failure it fixed, before the analyzer settles that failure.
func (c *collector) result(e Event) {
	i, ok := c.byID[e.CallID]
	rec := c.a.calls[e.CallID]
	if !ok || rec == nil || rec.done || c.calls[i].Outcome != OutcomeUnknown {
		return
	}
	lc := &c.calls[i]
	r := e.Result
	lc.ExitCode = r.ExitCode
	if c.a.procs.stopped(rec, r) {
		lc.Outcome = OutcomeStopped
		return
	}
	if !r.Failed() || probe(rec.call, r) {
		lc.Outcome = OutcomeFine
		if r.Failed() {
			return // an answer: it fixes nothing
		}
		if prev := c.a.similarOpen(rec); prev != nil {
			for f, ok := c.byID[prev.rec.id]; ok; f, ok = c.retryOf[f] {
				c.calls[f].Fix = i
			}
		}
		return
	}
	lc.Outcome = OutcomeFailed
	unecho(rec.call, r)
	lc.Error = r.Output
	if r.Timeout && lc.Error == "" {
		lc.Error = "timed out"
	}
	if prev := c.a.similarOpen(rec); prev != nil {
		if f, ok := c.byID[prev.rec.id]; ok {
			c.retryOf[i] = f
		}
	}
}

func (c *collector) logged(file string, format Format) *LoggedSession {
	c.a.flush()
	return &LoggedSession{File: file, Format: format, Agent: format.Agent(), Session: c.a.sess, Calls: c.calls, Prompts: c.prompts}
}

// readFile reads one log file whole.
func (c *collector) readFile(path string, o Options, format *Format, lines *int, n *int64, invalid, overlong *int, errs *[]string, err *error) *LoggedSession {
	f, e := scope.OpenRegular(path)
	if e != nil {
		*err = e
		return nil
	}
	defer f.Close()
	fi, e := f.Stat()
	if e != nil {
		*err = e
		return nil
	}
	size := fi.Size()
	lr := newLineReader(io.NewSectionReader(f, 0, size), 0, 0, o.MaxLineBytes)
	defer lr.release()
	head, _ := lr.r.Peek(headBytes)
	*format = detect(path, head)
	geminiProject(*format, path, c)
	switch {
	case *format == FormatUnknown:
		return nil
	case format.lineBased():
		lineFn := claudeLine
		switch *format {
		case FormatCodex:
			lineFn = newCodexReader().line
		case FormatGeminiJSONL:
			lineFn = geminiLines(geminiRewinds(io.NewSectionReader(f, 0, size), o.MaxLineBytes))
		}
		for {
			b, _, _, e := lr.next()
			if e != nil {
				if !errors.Is(e, io.EOF) {
					*err = e
					return nil
				}
				break
			}
			*lines++
			b = bytes.TrimSpace(b)
			if len(b) == 0 {
				continue
			}
			if b[0] != '{' || b[len(b)-1] != '}' {
				if *invalid == 0 {
					*errs = append(*errs, fmt.Sprintf("%s:%d: not a JSON record (a truncated log?); skipped", path, lr.line))
				}
				*invalid++
				continue
			}
			lineFn(b, lr.line, c)
		}
		*n, *overlong = lr.off, lr.overlong
		if lr.overlong > 0 {
			*errs = append(*errs, fmt.Sprintf("%s: %d lines longer than %d bytes; skipped", path, lr.overlong, o.MaxLineBytes))
		}
	case *format == FormatOpencodeTree:
		_, e := opencodeTree(path, o.MaxDocumentBytes, c, func(e error) { *errs = append(*errs, e.Error()) })
		if e != nil {
			*err = e
			return nil
		}
		*n = size
	case size > o.MaxDocumentBytes:
		*err = fmt.Errorf("larger than %d bytes; skipped", o.MaxDocumentBytes)
		return nil
	default:
		b, e := io.ReadAll(io.LimitReader(lr.r, size))
		if e != nil {
			*err = e
			return nil
		}
		*n, *lines = int64(len(b)), bytes.Count(b, []byte("\n"))+1
		switch *format {
		case FormatGeminiJSON:
			geminiJSON(b, c)
		case FormatOpencodeExport:
			opencodeExport(b, c)
		case FormatOpencodeRecord:
			opencodeRecord(b, c)
		}
	}
	return c.logged(path, *format)
}

// readDBSession reads one session of an opencode database.
func (c *collector) readDBSession(j readJob) (*LoggedSession, error) {
	db, tx, err := openDB(context.Background(), j.path)
	if err != nil {
		return nil, fmt.Errorf("opencode database: %w", err)
	}
	defer db.Close()
	defer tx.Rollback()
	s := &dbSession{id: j.dbSession, project: j.dbProject, firstMsg: unknown.msg, firstPart: unknown.part, lastPart: math64Max}
	if err := readDBMessages(tx, []*dbSession{s}); err != nil {
		return nil, fmt.Errorf("opencode database: %w", err)
	}
	c.a.sess = Session{ID: s.id, Project: s.project}
	for i, m := range s.messages {
		role := opencodeMessage([]byte(m.data), m.id, i+1, c)
		for _, p := range m.parts {
			opencodePart([]byte(p.data), p.id, role, i+1, c)
		}
	}
	return c.logged(j.path+"#"+j.dbSession, FormatOpencodeDB), nil
}

const math64Max = 1<<63 - 1
