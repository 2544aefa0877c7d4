package scanner

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lessons-dev/lessons/scanner/internal/sqlitefile"
)

// opencode 1.2 and later keep every session in one SQLite database,
// opencode.db, whose session, message and part tables hold in their data
// columns the JSON the older storage tree kept in files. A scan reads the
// sessions that changed since the last one, each with its own analyzer,
// and keeps each session's state under "<db>#<session id>".

// isOpencodeDB reports whether a file name is opencode's database
// (opencode.db, or a channel's opencode-<name>.db).
func isOpencodeDB(name string) bool {
	return strings.HasPrefix(name, "opencode") && strings.HasSuffix(name, ".db")
}

// dbStat is what says a database changed: its size and mtime, with its
// write-ahead log's, where recent commits live until a checkpoint.
func dbStat(path string, info os.FileInfo) (size, mtime int64) {
	size, mtime = info.Size(), info.ModTime().UnixNano()
	if wal, err := os.Stat(path + "-wal"); err == nil {
		size += wal.Size()
		mtime = max(mtime, wal.ModTime().UnixNano())
	}
	return size, mtime
}

// sessionKey is where a database session's state is kept.
func sessionKey(db, id string) string { return db + "#" + id }

// dbSessions returns the states kept for the sessions of db.
func dbSessions(st *scanState, db string) map[string]*fileState {
	out := map[string]*fileState{}
	prefix := db + "#"
	for k, v := range st.Files {
		if id, ok := strings.CutPrefix(k, prefix); ok {
			out[id] = v
		}
	}
	return out
}

// dbSession is a session of the database and, once read, its messages
// with their parts. Rowids grow with each insert, so all of a session's
// messages and parts lie at or after firstMsg and firstPart: bounds at
// first, the smallest rowids seen once read.
type dbSession struct {
	id, project string
	updated     int64 // ns
	firstMsg    int64
	firstPart   int64
	lastPart    int64 // largest part rowid, when dbBatches has measured it
	bytes       int   // part data, when dbBatches has measured it
	messages    []*dbMessage
}

type dbMessage struct {
	id      string
	created int64
	data    string
	parts   []dbPart
}

type dbPart struct {
	id      string
	created int64
	data    string
}

// marks are the next rowids of the message and part tables: every row
// inserted later has a rowid at or after them. A database's own state
// keeps them, the part mark as Offset and the message mark as Line, and
// a session's state keeps its firstPart and firstMsg the same way.
type marks struct{ msg, part int64 }

// unknown marks read a table from its first row.
var unknown = marks{math.MinInt64, math.MinInt64}

// batchBytes caps the message and part data held at once: a first scan
// of a large database reads its sessions in batches of about this size
// (a variable, so tests can make batches small).
var batchBytes = 32 << 20

// errStop ends a scan early; it is not an error.
var errStop = errors.New("stop")

// scanOpencodeDB reads the sessions of the database j.path that changed
// since the states in j.sessions, or whose unsettled failures can now be
// settled.
func scanOpencodeDB(j job, opts Options) fileResult {
	size, mtime := dbStat(j.path, j.info)
	var r fileResult
	var err error
	// opencode may checkpoint while we read: the reader then refuses
	// rows that mix old and new pages, and reading again sees the new.
	for range 3 {
		r = fileResult{path: j.path, bytes: size, sessions: map[string]*fileState{}}
		r.state = &fileState{Format: FormatOpencodeDB, Size: size, MtimeNs: mtime, Inode: inode(j.info)}
		if err = r.readOpencodeDB(j, opts, size); !errors.Is(err, sqlitefile.ErrChanged) {
			break
		}
	}
	if err != nil {
		r.err = fmt.Errorf("opencode database: %w", err)
	}
	return r
}

func (r *fileResult) readOpencodeDB(j job, opts Options, size int64) error {
	db, err := sqlitefile.Open(j.path)
	if err != nil {
		return err
	}
	defer db.Close()
	sessions, err := readDBSessions(db)
	if err != nil {
		return err
	}
	prev, err := prevMarks(db, j.prev)
	if err != nil {
		return err
	}
	if deleted(sessions, j.sessions) {
		// Their rows may have been the newest, and their rowids given
		// again to rows a new session added.
		prev = unknown
	}
	var todo []*dbSession
	for _, s := range sessions {
		ps := j.sessions[s.id]
		if ps != nil && ps.MtimeNs == s.updated && !(ps.Pending && idle(opts, s.updated)) {
			r.sessions[s.id] = ps
			continue
		}
		// A session new since the last scan starts after its marks.
		s.firstMsg, s.firstPart = prev.msg, prev.part
		if ps != nil && prev != unknown {
			s.firstMsg, s.firstPart = int64(ps.Line), ps.Offset
		}
		todo = append(todo, s)
	}
	next := prev // the scans below read to where the tables end
	batches := [][]*dbSession{todo}
	if size > int64(batchBytes) && len(todo) > 1 {
		if batches, err = dbBatches(db, todo, &next); err != nil {
			return err
		}
	}
	for _, batch := range batches {
		if len(batch) == 0 {
			continue
		}
		if err := readDBMessages(db, batch, &next); err != nil {
			return err
		}
		for _, s := range batch {
			r.analyzeDBSession(j.path, s, next, opts)
			s.messages = nil
		}
	}
	r.state.Offset, r.state.Line = next.part, int(next.msg)
	return nil
}

// deleted reports whether a session the last scan saw is gone.
func deleted(sessions []*dbSession, seen map[string]*fileState) bool {
	now := make(map[string]bool, len(sessions))
	for _, s := range sessions {
		now[s.id] = true
	}
	for id := range seen {
		if !now[id] {
			return true
		}
	}
	return false
}

// prevMarks are the marks the last scan left in st, if they still hold:
// the last row seen of each table is still there, so no row inserted
// since took a smaller rowid (SQLite gives a new row the largest rowid
// plus one). Otherwise they are unknown, and tables are read whole.
func prevMarks(db *sqlitefile.DB, st *fileState) (marks, error) {
	if st == nil || st.Format != FormatOpencodeDB || st.Offset <= math.MinInt64+1 || st.Line <= math.MinInt64+1 {
		return unknown, nil
	}
	m := marks{msg: int64(st.Line), part: st.Offset}
	for _, t := range []struct {
		table string
		mark  int64
	}{{"message", m.msg}, {"part", m.part}} {
		found := false
		err := db.ScanFrom(t.table, t.mark-1, func(rowid int64, _ sqlitefile.Row) error {
			found = rowid == t.mark-1
			return errStop
		})
		if err != nil && !errors.Is(err, errStop) {
			return unknown, err
		}
		if !found {
			return unknown, nil
		}
	}
	return m, nil
}

// analyzeDBSession runs the heuristics over one session read whole; next
// are the marks after the scan, where a session with no rows yet will
// find its first.
func (r *fileResult) analyzeDBSession(db string, s *dbSession, next marks, opts Options) {
	a := newAnalyzer()
	a.sess = Session{ID: s.id, Project: s.project}
	first := next
	for i, m := range s.messages {
		role := opencodeMessage([]byte(m.data), m.id, i+1, a)
		for _, p := range m.parts {
			opencodePart([]byte(p.data), p.id, role, i+1, a)
		}
		r.lines++
	}
	if s.firstMsg != math.MaxInt64 {
		first.msg = s.firstMsg
	}
	if s.firstPart != math.MaxInt64 {
		first.part = s.firstPart
	}
	st := &fileState{Format: FormatOpencodeDB, MtimeNs: s.updated, Session: a.sess, Offset: first.part, Line: int(first.msg)}
	if idle(opts, s.updated) {
		a.flush()
	} else {
		st.Pending = len(a.open) > 0
	}
	r.files++
	r.tags, r.malformed, r.templates = r.tags+a.tags, r.malformed+a.malformed, r.templates+a.templates
	now := opts.Now()
	for _, fd := range a.findings {
		if c, ok := build(fd, a.sess, db, "opencode", now); ok {
			r.found = append(r.found, c)
		}
	}
	r.sessions[s.id] = st
}

// dbBatches measures the part data and rowids of each session, then splits
// the sessions, in the order of their first part, into batches whose
// parts hold about batchBytes; a larger session makes a batch of its own.
// Sessions rarely overlap in time, so each batch reads its own stretch of
// the part table.
func dbBatches(db *sqlitefile.DB, sessions []*dbSession, next *marks) ([][]*dbSession, error) {
	pc, err := columns(db, "part", "session_id", "data")
	if err != nil {
		return nil, err
	}
	byID := map[string]*dbSession{}
	from := int64(math.MaxInt64)
	for _, s := range sessions {
		byID[s.id] = s
		from = min(from, s.firstPart)
		s.firstPart, s.lastPart = math.MaxInt64, math.MinInt64
	}
	err = db.ScanFrom("part", from, func(rowid int64, row sqlitefile.Row) error {
		next.part = max(next.part, rowid+1)
		if s := byID[row.String(pc[0])]; s != nil {
			s.bytes += len(row.String(pc[1]))
			s.firstPart, s.lastPart = min(s.firstPart, rowid), max(s.lastPart, rowid)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sorted := slices.Clone(sessions)
	slices.SortStableFunc(sorted, func(a, b *dbSession) int { return cmp.Compare(a.firstPart, b.firstPart) })
	var out [][]*dbSession
	var batch []*dbSession
	sum := 0
	for _, s := range sorted {
		if sum+s.bytes > batchBytes && len(batch) > 0 {
			out, batch, sum = append(out, batch), nil, 0
		}
		batch = append(batch, s)
		sum += s.bytes
	}
	return append(out, batch), nil
}

// readDBSessions lists the database's sessions.
func readDBSessions(db *sqlitefile.DB) ([]*dbSession, error) {
	col, err := columns(db, "session", "id", "directory", "time_updated")
	if err != nil {
		return nil, err
	}
	var out []*dbSession
	err = db.Scan("session", func(_ int64, row sqlitefile.Row) error {
		out = append(out, &dbSession{
			id: row.String(col[0]), project: row.String(col[1]),
			updated:  time.UnixMilli(row.Int(col[2])).UnixNano(),
			lastPart: math.MaxInt64, // not measured: read to the end
		})
		return nil
	})
	return out, err
}

// readDBMessages fills in the messages and parts of sessions, each in
// creation order (ids break ties: opencode's ids sort by creation time),
// reading each table from the sessions' first rowids on, and sets their
// first rowids to the smallest seen. next follows where the tables end.
func readDBMessages(db *sqlitefile.DB, sessions []*dbSession, next *marks) error {
	todo := map[string]*dbSession{}
	from := marks{math.MaxInt64, math.MaxInt64}
	to := int64(math.MinInt64)
	for _, s := range sessions {
		todo[s.id] = s
		from.msg, from.part = min(from.msg, s.firstMsg), min(from.part, s.firstPart)
		to = max(to, s.lastPart)
		s.firstMsg, s.firstPart = math.MaxInt64, math.MaxInt64
	}
	mc, err := columns(db, "message", "id", "session_id", "time_created", "data")
	if err != nil {
		return err
	}
	byID := map[string]*dbMessage{}
	err = db.ScanFrom("message", from.msg, func(rowid int64, row sqlitefile.Row) error {
		next.msg = max(next.msg, rowid+1)
		s := todo[row.String(mc[1])]
		if s == nil {
			return nil
		}
		m := &dbMessage{id: row.String(mc[0]), created: row.Int(mc[2]), data: row.String(mc[3])}
		s.messages = append(s.messages, m)
		s.firstMsg = min(s.firstMsg, rowid)
		byID[m.id] = m
		return nil
	})
	if err != nil {
		return err
	}
	pc, err := columns(db, "part", "id", "message_id", "session_id", "time_created", "data")
	if err != nil {
		return err
	}
	err = db.ScanFrom("part", from.part, func(rowid int64, row sqlitefile.Row) error {
		if rowid > to {
			return errStop
		}
		next.part = max(next.part, rowid+1)
		if m := byID[row.String(pc[1])]; m != nil {
			m.parts = append(m.parts, dbPart{id: row.String(pc[0]), created: row.Int(pc[3]), data: row.String(pc[4])})
			if s := todo[row.String(pc[2])]; s != nil {
				s.firstPart = min(s.firstPart, rowid)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return err
	}
	for _, s := range sessions {
		slices.SortFunc(s.messages, func(a, b *dbMessage) int {
			return cmp.Or(cmp.Compare(a.created, b.created), cmp.Compare(a.id, b.id))
		})
		for _, m := range s.messages {
			slices.SortFunc(m.parts, func(a, b dbPart) int {
				return cmp.Or(cmp.Compare(a.created, b.created), cmp.Compare(a.id, b.id))
			})
		}
	}
	return nil
}

// columns finds the named columns of table, in order.
func columns(db *sqlitefile.DB, table string, names ...string) ([]int, error) {
	have, err := db.Columns(table)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = slices.Index(have, n)
		if out[i] < 0 {
			return nil, fmt.Errorf("table %s has no column %s (columns: %s)", table, n, strings.Join(have, ", "))
		}
	}
	return out, nil
}

// opencodeDBPath is opencode's database under home.
func opencodeDBPath(home string) string {
	return filepath.Join(home, ".local", "share", "opencode", "opencode.db")
}
