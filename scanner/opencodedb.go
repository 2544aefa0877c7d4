package scanner

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lessons-dev/lessons/scope"
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
// write-ahead log's, where recent commits live until a checkpoint. An
// empty log holds none: SQLite makes one when a scan opens a database in
// WAL mode that nothing has open.
func dbStat(path string, info os.FileInfo) (size, mtime int64) {
	size, mtime = info.Size(), info.ModTime().UnixNano()
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
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

// busyTimeout is how long a read waits for opencode's lock: only a
// checkpoint that resets the write-ahead log, or a recovery, holds it.
const busyTimeout = 5 * time.Second

// openDB opens path read-only through SQLite, which reads the commits in
// its write-ahead log too (immutable=0), and starts the read transaction
// every query of a scan shares: one snapshot, whatever opencode commits
// meanwhile.
//
// SQLite opens the database and its -wal and -shm itself, so each is
// checked first: one that is a named pipe or a device is refused (an
// error wrapping scope.ErrNotRegular), not handed to SQLite.
func openDB(ctx context.Context, path string) (*sql.DB, *sql.Tx, error) {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(p); err == nil {
			if err := scope.CheckRegular(p, fi); err != nil {
				return nil, nil, err
			}
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("immutable", "0")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	u := url.URL{Scheme: "file", OmitHost: true, Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	db, err := sql.Open(sqlDriver, u.String())
	if err != nil {
		return nil, nil, err
	}
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return db, tx, nil
}

// scanOpencodeDB reads the sessions of the database j.path that changed
// since the states in j.sessions, or whose unsettled failures can now be
// settled.
func scanOpencodeDB(j job, opts Options) fileResult {
	size, mtime := dbStat(j.path, j.info)
	r := fileResult{path: j.path, bytes: size, sessions: map[string]*fileState{}}
	r.state = &fileState{Format: FormatOpencodeDB, Size: size, MtimeNs: mtime, Inode: inode(j.info)}
	if err := r.readOpencodeDB(j, opts, size); err != nil {
		r.err = fmt.Errorf("opencode database: %w", err)
	}
	return r
}

func (r *fileResult) readOpencodeDB(j job, opts Options, size int64) error {
	db, tx, err := openDB(context.Background(), j.path)
	if err != nil {
		return err
	}
	defer db.Close()
	defer tx.Rollback()
	var made bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'session')`).Scan(&made); err != nil {
		return fmt.Errorf("reading the schema: %w", err)
	}
	if !made {
		// opencode has just made the file and not yet its tables.
		r.state.Offset, r.state.Line = unknown.part, int(unknown.msg)
		return nil
	}
	sessions, err := readDBSessions(tx)
	if err != nil {
		return err
	}
	prev, err := prevMarks(tx, j.prev)
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
	next, err := ends(tx, prev)
	if err != nil {
		return err
	}
	batches := [][]*dbSession{todo}
	if size > int64(batchBytes) && len(todo) > 1 {
		if batches, err = dbBatches(tx, todo); err != nil {
			return err
		}
	}
	for _, batch := range batches {
		if len(batch) == 0 {
			continue
		}
		if err := readDBMessages(tx, batch); err != nil {
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
func prevMarks(tx *sql.Tx, st *fileState) (marks, error) {
	if st == nil || st.Format != FormatOpencodeDB || st.Offset <= math.MinInt64+1 || st.Line <= math.MinInt64+1 {
		return unknown, nil
	}
	m := marks{msg: int64(st.Line), part: st.Offset}
	var found bool
	err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM message WHERE rowid = ?) AND EXISTS (SELECT 1 FROM part WHERE rowid = ?)`,
		m.msg-1, m.part-1).Scan(&found)
	if err != nil {
		return unknown, fmt.Errorf("reading the message and part tables: %w", err)
	}
	if !found {
		return unknown, nil
	}
	return m, nil
}

// ends are the marks after the last rows of the tables, or prev where a
// table is empty.
func ends(tx *sql.Tx, prev marks) (marks, error) {
	var msg, part sql.NullInt64
	if err := tx.QueryRow(`SELECT (SELECT max(rowid) FROM message), (SELECT max(rowid) FROM part)`).Scan(&msg, &part); err != nil {
		return prev, fmt.Errorf("reading the message and part tables: %w", err)
	}
	next := prev
	if msg.Valid {
		next.msg = max(next.msg, msg.Int64+1)
	}
	if part.Valid {
		next.part = max(next.part, part.Int64+1)
	}
	return next, nil
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
	r.commands, r.folders = append(r.commands, a.commands...), append(r.folders, a.folders...)
	r.used = append(r.used, a.files...)
	now := opts.Now()
	for _, fd := range a.findings {
		if c, ok := build(fd, a.sess, db, "opencode", now); ok {
			r.found = append(r.found, c)
		}
	}
	r.sessions[s.id] = st
}

// sessionIDs is the ids of sessions as a JSON array, which queries
// match with session_id IN (SELECT value FROM json_each(?)).
func sessionIDs(sessions []*dbSession) string {
	ids := make([]string, len(sessions))
	for i, s := range sessions {
		ids[i] = s.id
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

// dbBatches measures the part data and rowids of each session, then splits
// the sessions, in the order of their first part, into batches whose
// parts hold about batchBytes; a larger session makes a batch of its own.
// Sessions rarely overlap in time, so each batch reads its own stretch of
// the part table.
func dbBatches(tx *sql.Tx, sessions []*dbSession) ([][]*dbSession, error) {
	byID := map[string]*dbSession{}
	from := int64(math.MaxInt64)
	for _, s := range sessions {
		byID[s.id] = s
		from = min(from, s.firstPart)
		s.firstPart, s.lastPart = math.MaxInt64, math.MinInt64
	}
	// octet_length reads a text's size from the row's header, not its
	// pages.
	rows, err := tx.Query(`SELECT session_id, min(rowid), max(rowid), sum(octet_length(data)) FROM part
		WHERE rowid >= ? AND session_id IN (SELECT value FROM json_each(?)) GROUP BY session_id`,
		from, sessionIDs(sessions))
	if err != nil {
		return nil, fmt.Errorf("reading the part table: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var first, last, bytes int64
		if err := rows.Scan(&id, &first, &last, &bytes); err != nil {
			return nil, fmt.Errorf("reading the part table: %w", err)
		}
		if s := byID[id]; s != nil {
			s.firstPart, s.lastPart, s.bytes = first, last, int(bytes)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the part table: %w", err)
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
func readDBSessions(tx *sql.Tx) ([]*dbSession, error) {
	rows, err := tx.Query(`SELECT id, directory, time_updated FROM session`)
	if err != nil {
		return nil, fmt.Errorf("reading the session table: %w", err)
	}
	defer rows.Close()
	var out []*dbSession
	for rows.Next() {
		s := &dbSession{lastPart: math.MaxInt64} // not measured: read to the end
		var updated int64
		if err := rows.Scan(&s.id, &s.project, &updated); err != nil {
			return nil, fmt.Errorf("reading the session table: %w", err)
		}
		s.updated = time.UnixMilli(updated).UnixNano()
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the session table: %w", err)
	}
	return out, nil
}

// readDBMessages fills in the messages and parts of sessions, each in
// creation order (ids break ties: opencode's ids sort by creation time),
// reading each table from the sessions' first rowids on, and sets their
// first rowids to the smallest seen.
func readDBMessages(tx *sql.Tx, sessions []*dbSession) error {
	todo := map[string]*dbSession{}
	from := marks{math.MaxInt64, math.MaxInt64}
	to := int64(math.MinInt64)
	for _, s := range sessions {
		todo[s.id] = s
		from.msg, from.part = min(from.msg, s.firstMsg), min(from.part, s.firstPart)
		to = max(to, s.lastPart)
		s.firstMsg, s.firstPart = math.MaxInt64, math.MaxInt64
	}
	ids := sessionIDs(sessions)
	byID := map[string]*dbMessage{}
	err := query(tx, "message", `SELECT rowid, id, session_id, time_created, data FROM message
		WHERE rowid >= ? AND session_id IN (SELECT value FROM json_each(?))`, []any{from.msg, ids},
		func(rows *sql.Rows) error {
			var rowid int64
			var sid string
			m := &dbMessage{}
			if err := rows.Scan(&rowid, &m.id, &sid, &m.created, &m.data); err != nil {
				return err
			}
			if s := todo[sid]; s != nil {
				s.messages = append(s.messages, m)
				s.firstMsg = min(s.firstMsg, rowid)
				byID[m.id] = m
			}
			return nil
		})
	if err != nil {
		return err
	}
	err = query(tx, "part", `SELECT rowid, id, message_id, session_id, time_created, data FROM part
		WHERE rowid >= ? AND rowid <= ? AND session_id IN (SELECT value FROM json_each(?))`, []any{from.part, to, ids},
		func(rows *sql.Rows) error {
			var rowid int64
			var mid, sid string
			var p dbPart
			if err := rows.Scan(&rowid, &p.id, &mid, &sid, &p.created, &p.data); err != nil {
				return err
			}
			if m := byID[mid]; m != nil {
				m.parts = append(m.parts, p)
				if s := todo[sid]; s != nil {
					s.firstPart = min(s.firstPart, rowid)
				}
			}
			return nil
		})
	if err != nil {
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

// query runs a query of table and calls row for each row.
func query(tx *sql.Tx, table, q string, args []any, row func(*sql.Rows) error) error {
	rows, err := tx.Query(q, args...)
	if err != nil {
		return fmt.Errorf("reading the %s table: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			return fmt.Errorf("reading the %s table: %w", table, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the %s table: %w", table, err)
	}
	return nil
}

// opencodeDBPath is opencode's database under home.
func opencodeDBPath(home string) string {
	return filepath.Join(home, ".local", "share", "opencode", "opencode.db")
}
