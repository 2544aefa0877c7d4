// Package sqlitefile reads the tables of an SQLite 3 database file, such as
// opencode's session database, without cgo and without an SQL engine.
//
// It follows the file format (https://www.sqlite.org/fileformat2.html):
// the 100-byte header, the sqlite_schema table on page 1, table b-trees
// with overflow chains, the record format, and the write-ahead log: the
// frames of path+"-wal" up to its last valid commit take the place of the
// main file's pages, as they do for an SQLite reader.
//
// It is read-only and small on purpose. It scans whole tables in rowid
// order and never uses indexes; it reads only UTF-8 databases and rowid
// tables (no WITHOUT ROWID, virtual or generated-column tables). Values
// read as SQLite returns them (an INTEGER PRIMARY KEY column as the rowid,
// an integer stored in a REAL column as a float), except that a column
// added by ALTER TABLE reads as NULL in rows written before it, whatever
// its default.
//
// It takes none of SQLite's locks, and the database may be written while
// it is read. Every offset is checked: a page that does not make sense (a
// corrupt file, or a writer changed it) ends the call with an error naming
// the page, never a panic or an endless loop. In WAL mode, which opencode
// uses, the -shm file shows when a checkpoint or a WAL restart changes the
// pages under a reader; the read then fails with ErrChanged, before any
// row mixing old and new pages is returned, and opening the database again
// gives a fresh view. A database not in WAL mode has no such guard: a read
// during a write may fail or return rows mixing old and new content.
package sqlitefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
)

// DB is an open database file. Tables, Columns and Scan may be called
// concurrently.
type DB struct {
	main     io.ReaderAt // the database file
	wal      io.ReaderAt // the -wal file, nil if absent or ignored
	files    []*os.File  // to close
	pageSize int         // bytes per page
	usable   int         // bytes per page less the reserved bytes at the end
	nPages   uint32      // size of the database in pages

	// walFrames maps a page number to the offset in wal of its latest
	// committed frame; mxFrame is the number of the last such frame
	// (from 1) and walSalt the salt they carry.
	walFrames map[uint32]int64
	mxFrame   uint32
	walSalt   [8]byte
	shm       io.ReaderAt // the -shm file, to see if a checkpoint ran; nil if absent

	tables []*table // in sqlite_schema order
}

// table is a rowid table from sqlite_schema.
type table struct {
	name  string
	root  uint32   // root page of its b-tree
	cols  []column // in declaration order
	alias int      // index of the INTEGER PRIMARY KEY column (an alias of the rowid), or -1
	err   error    // why it cannot be read, if it cannot
}

// column is a column of a table.
type column struct {
	name string
	real bool // REAL affinity: integers stored for it read as floats
}

// schemaTable describes sqlite_schema, the table on page 1 listing all others.
var schemaTable = &table{
	name:  "sqlite_schema",
	root:  1,
	cols:  []column{{name: "type"}, {name: "name"}, {name: "tbl_name"}, {name: "rootpage"}, {name: "sql"}},
	alias: -1,
}

// ErrChanged is the error (tested with errors.Is) of an Open or Scan that
// saw a writer change the file under it: reading may have mixed pages
// from before and after the change. Open the database again and retry.
var ErrChanged = errors.New("database changed while being read")

// Row is one row of a table, a value per column: nil (NULL), int64,
// float64, string (text) or []byte (blob). Each row passed to a Scan
// callback is newly allocated and may be kept.
type Row []any

// String returns value i as a string: text or blob as is, a number in
// decimal, NULL or a column past the end as "".
func (r Row) String(i int) string {
	if i < 0 || i >= len(r) {
		return ""
	}
	switch v := r[i].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}

// Int returns value i as an int64: an integer as is, a float truncated,
// anything else (NULL, text, blob, a column past the end) as 0.
func (r Row) Int(i int) int64 {
	if i < 0 || i >= len(r) {
		return 0
	}
	switch v := r[i].(type) {
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return 0
}

// Open opens the database at path for reading, with path+"-wal" and
// path+"-shm" if they exist, and reads the schema: the view of the
// database as of its last commit in the WAL.
func Open(path string) (*DB, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	files := []*os.File{f}
	var wal, shm io.ReaderAt // stay nil interfaces when there is no file
	if w, err := os.Open(path + "-wal"); err == nil {
		wal = w
		files = append(files, w)
	} else if !errors.Is(err, fs.ErrNotExist) {
		f.Close()
		return nil, err
	}
	if s, err := os.Open(path + "-shm"); err == nil { // only a hint: errors don't matter
		shm = s
		files = append(files, s)
	}
	st, err := f.Stat()
	var db *DB
	if err == nil {
		db, err = open(f, st.Size(), wal, shm)
	}
	if err != nil {
		for _, f := range files {
			f.Close()
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.files = files
	return db, nil
}

// open reads the header, the WAL index and the schema. wal and shm may be
// nil.
func open(main io.ReaderAt, mainSize int64, wal, shm io.ReaderAt) (*DB, error) {
	h := make([]byte, 100)
	if _, err := main.ReadAt(h, 0); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, errors.New("sqlitefile: not an SQLite 3 database (too short)")
		}
		return nil, err
	}
	if string(h[:16]) != "SQLite format 3\x00" {
		return nil, errors.New("sqlitefile: not an SQLite 3 database")
	}
	db := &DB{main: main, pageSize: int(binary.BigEndian.Uint16(h[16:]))}
	if db.pageSize == 1 {
		db.pageSize = 65536
	}
	if db.pageSize < 512 || db.pageSize&(db.pageSize-1) != 0 {
		return nil, fmt.Errorf("sqlitefile: bad page size %d", db.pageSize)
	}
	db.usable = db.pageSize - int(h[20])
	if db.usable < 480 {
		return nil, fmt.Errorf("sqlitefile: %d reserved bytes leave too little of a %d-byte page", h[20], db.pageSize)
	}
	switch enc := binary.BigEndian.Uint32(h[56:]); enc {
	case 0, 1: // 0: nothing written yet
	case 2, 3:
		return nil, errors.New("sqlitefile: UTF-16 databases are not supported")
	default:
		return nil, fmt.Errorf("sqlitefile: unknown text encoding %d", enc)
	}
	// The page count in the header is valid only if written by the
	// version that last changed the file (offset 92 = change counter at 24).
	db.nPages = binary.BigEndian.Uint32(h[28:])
	if db.nPages == 0 || binary.BigEndian.Uint32(h[92:]) != binary.BigEndian.Uint32(h[24:]) {
		db.nPages = uint32(min(mainSize/int64(db.pageSize), math.MaxUint32))
	}
	if wal != nil {
		if err := db.readWAL(wal); err != nil {
			return nil, err
		}
	}
	if shm != nil {
		db.watch(shm)
	}
	if err := db.readSchema(); err != nil {
		return nil, err
	}
	return db, nil
}

// Close closes the database file and its WAL.
func (db *DB) Close() error {
	var first error
	for _, f := range db.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	db.files = nil
	return first
}

// readSchema fills db.tables from sqlite_schema. A table whose definition
// this package cannot read is listed, with the reason kept for Columns
// and Scan.
func (db *DB) readSchema() error {
	return db.scan(schemaTable, math.MinInt64, func(_ int64, r Row) error {
		if r.String(0) != "table" {
			return nil // index, view or trigger
		}
		t := &table{name: r.String(1), alias: -1}
		db.tables = append(db.tables, t)
		root, sql := r.Int(3), r.String(4)
		switch {
		case root == 0:
			t.err = fmt.Errorf("sqlitefile: table %q: virtual tables are not supported", t.name)
		case root < 0 || root > math.MaxUint32:
			t.err = fmt.Errorf("sqlitefile: table %q: bad root page %d", t.name, root)
		default:
			t.root = uint32(root)
			var err error
			if t.cols, t.alias, err = parseCreateTable(sql); err != nil {
				t.err = fmt.Errorf("sqlitefile: table %q: %w", t.name, err)
			}
		}
		return nil
	})
}

// Tables returns the names of the tables, in the order of sqlite_schema.
func (db *DB) Tables() []string {
	names := make([]string, len(db.tables))
	for i, t := range db.tables {
		names[i] = t.name
	}
	return names
}

// table finds a table by name, ignoring case as SQLite does.
func (db *DB) table(name string) (*table, error) {
	for _, t := range db.tables {
		if strings.EqualFold(t.name, name) {
			return t, t.err
		}
	}
	return nil, fmt.Errorf("sqlitefile: no table %q", name)
}

// Columns returns the column names of a table, as declared by its
// CREATE TABLE statement; Scan's rows have a value for each.
func (db *DB) Columns(table string) ([]string, error) {
	t, err := db.table(table)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = c.name
	}
	return names, nil
}

// Scan calls fn for each row of a table in rowid order. An error from fn
// stops the scan and is returned as is. An error wrapping ErrChanged means
// a writer changed the file since Open: the rows fn got were read before
// the change, the rest is for a new DB to read.
func (db *DB) Scan(table string, fn func(rowid int64, row Row) error) error {
	return db.ScanFrom(table, math.MinInt64, fn)
}

// ScanFrom is Scan of the rows whose rowid is at least from. It reads only
// the pages that can hold them, so the newest rows of a table whose rowids
// grow with each insert cost a few pages, not the whole table.
func (db *DB) ScanFrom(table string, from int64, fn func(rowid int64, row Row) error) error {
	t, err := db.table(table)
	if err != nil {
		return err
	}
	return db.scan(t, from, fn)
}
