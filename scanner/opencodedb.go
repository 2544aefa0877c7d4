package scanner

import (
	"cmp"
	"errors"
	"fmt"
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

type dbSession struct {
	id, project string
	updated     int64 // ns
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

// batchBytes caps the message and part data held at once: a first scan
// of a large database reads its sessions in batches of about this size
// (a variable, so tests can make batches small).
var batchBytes = 32 << 20

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
	var todo []*dbSession
	for _, s := range sessions {
		if prev := j.sessions[s.id]; prev != nil && prev.MtimeNs == s.updated && !(prev.Pending && idle(opts, s.updated)) {
			r.sessions[s.id] = prev
			continue
		}
		todo = append(todo, s)
	}
	batches := [][]*dbSession{todo}
	if size > int64(batchBytes) && len(todo) > 1 {
		if batches, err = dbBatches(db, todo); err != nil {
			return err
		}
	}
	for _, batch := range batches {
		if len(batch) == 0 {
			continue
		}
		if err := readDBMessages(db, batch); err != nil {
			return err
		}
		for _, s := range batch {
			r.analyzeDBSession(j.path, s, opts)
			s.messages = nil
		}
	}
	return nil
}

// analyzeDBSession runs the heuristics over one session read whole.
func (r *fileResult) analyzeDBSession(db string, s *dbSession, opts Options) {
	a := newAnalyzer()
	a.sess = Session{ID: s.id, Project: s.project}
	for i, m := range s.messages {
		role := opencodeMessage([]byte(m.data), m.id, i+1, a)
		for _, p := range m.parts {
			opencodePart([]byte(p.data), p.id, role, i+1, a)
		}
		r.lines++
	}
	st := &fileState{Format: FormatOpencodeDB, MtimeNs: s.updated, Session: a.sess}
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

// dbBatches splits sessions into batches whose parts hold about
// batchBytes of data; a larger session makes a batch of its own.
func dbBatches(db *sqlitefile.DB, sessions []*dbSession) ([][]*dbSession, error) {
	pc, err := columns(db, "part", "session_id", "data")
	if err != nil {
		return nil, err
	}
	bytes := map[string]int{}
	for _, s := range sessions {
		bytes[s.id] = 0
	}
	err = db.Scan("part", func(_ int64, row sqlitefile.Row) error {
		if n, ok := bytes[row.String(pc[0])]; ok {
			bytes[row.String(pc[0])] = n + len(row.String(pc[1]))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out [][]*dbSession
	var batch []*dbSession
	sum := 0
	for _, s := range sessions {
		if sum+bytes[s.id] > batchBytes && len(batch) > 0 {
			out, batch, sum = append(out, batch), nil, 0
		}
		batch = append(batch, s)
		sum += bytes[s.id]
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
			updated: time.UnixMilli(row.Int(col[2])).UnixNano(),
		})
		return nil
	})
	return out, err
}

// readDBMessages fills in the messages and parts of sessions, each in
// creation order (ids break ties: opencode's ids sort by creation time).
func readDBMessages(db *sqlitefile.DB, sessions []*dbSession) error {
	todo := map[string]*dbSession{}
	for _, s := range sessions {
		todo[s.id] = s
	}
	mc, err := columns(db, "message", "id", "session_id", "time_created", "data")
	if err != nil {
		return err
	}
	byID := map[string]*dbMessage{}
	err = db.Scan("message", func(_ int64, row sqlitefile.Row) error {
		s := todo[row.String(mc[1])]
		if s == nil {
			return nil
		}
		m := &dbMessage{id: row.String(mc[0]), created: row.Int(mc[2]), data: row.String(mc[3])}
		s.messages = append(s.messages, m)
		byID[m.id] = m
		return nil
	})
	if err != nil {
		return err
	}
	pc, err := columns(db, "part", "id", "message_id", "time_created", "data")
	if err != nil {
		return err
	}
	err = db.Scan("part", func(_ int64, row sqlitefile.Row) error {
		if m := byID[row.String(pc[1])]; m != nil {
			m.parts = append(m.parts, dbPart{id: row.String(pc[0]), created: row.Int(pc[2]), data: row.String(pc[3])})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range todo {
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
