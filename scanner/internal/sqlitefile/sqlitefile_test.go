package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The fixtures in testdata come from testdata/gen.py, with what SQLite
// reads from each in a JSON file next to it.

// want is a fixture's JSON file.
type want struct {
	Tables []struct {
		Name    string
		Error   bool
		Columns []string
		Rows    [][]json.RawMessage // rowid, then a value per column
	}
}

func loadWant(t *testing.T, name string) want {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", strings.TrimSuffix(name, ".db")+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var w want
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// decodeValue decodes a value of a fixture's JSON file: null, an
// integer, a string (text), {"f": "<float64 bits in hex>"} or
// {"b": "<blob in hex>"}.
func decodeValue(raw json.RawMessage) (any, error) {
	switch raw[0] {
	case 'n':
		return nil, nil
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '{':
		var fb struct{ F, B *string }
		if err := json.Unmarshal(raw, &fb); err != nil {
			return nil, err
		}
		if fb.F != nil {
			bits, err := strconv.ParseUint(*fb.F, 16, 64)
			return math.Float64frombits(bits), err
		}
		if fb.B != nil {
			return hex.DecodeString(*fb.B)
		}
		return nil, fmt.Errorf("bad value %s", raw)
	}
	return strconv.ParseInt(string(raw), 10, 64)
}

// same reports whether two values are the same, floats bit for bit.
func same(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case []byte:
		b, ok := b.([]byte)
		return ok && bytes.Equal(a, b)
	}
	return a == b
}

// check compares everything db returns with the fixture's JSON file.
func check(t *testing.T, db *DB, w want) {
	t.Helper()
	var names []string
	for _, wt := range w.Tables {
		names = append(names, wt.Name)
	}
	if got := db.Tables(); !slices.Equal(got, names) {
		t.Fatalf("Tables() = %q, want %q", got, names)
	}
	for _, wt := range w.Tables {
		cols, err := db.Columns(wt.Name)
		if wt.Error {
			if err == nil {
				t.Errorf("Columns(%q) = %q, want an error", wt.Name, cols)
			}
			if err := db.Scan(wt.Name, func(int64, Row) error { return nil }); err == nil {
				t.Errorf("Scan(%q) succeeded, want an error", wt.Name)
			}
			continue
		}
		if err != nil || !slices.Equal(cols, wt.Columns) {
			t.Errorf("Columns(%q) = %q, %v, want %q", wt.Name, cols, err, wt.Columns)
		}
		n := 0
		err = db.Scan(wt.Name, func(rowid int64, row Row) error {
			if n >= len(wt.Rows) {
				return fmt.Errorf("extra row %d", rowid)
			}
			wantID, err := decodeValue(wt.Rows[n][0])
			if err != nil {
				return err
			}
			vals := wt.Rows[n][1:]
			n++
			if rowid != wantID {
				return fmt.Errorf("row %d: rowid %d, want %d", n, rowid, wantID)
			}
			if len(row) != len(vals) {
				return fmt.Errorf("rowid %d: %d values, want %d", rowid, len(row), len(vals))
			}
			for i, raw := range vals {
				v, err := decodeValue(raw)
				if err != nil {
					return err
				}
				if !same(row[i], v) {
					return fmt.Errorf("rowid %d, column %s: got %T %.80s, want %T %.80s", rowid, cols[i], row[i], fmt.Sprint(row[i]), v, fmt.Sprint(v))
				}
			}
			return nil
		})
		if err != nil {
			t.Errorf("Scan(%q): %v", wt.Name, err)
		} else if n != len(wt.Rows) {
			t.Errorf("Scan(%q): %d rows, want %d", wt.Name, n, len(wt.Rows))
		}
	}
}

func TestFixtures(t *testing.T) {
	for _, name := range []string{"opencode.db", "types.db", "wal.db", "waltorn.db"} {
		t.Run(name, func(t *testing.T) {
			db, err := Open(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			check(t, db, loadWant(t, name))
		})
	}
}

// TestFixtureShapes checks that the fixtures exercise what they are for.
func TestFixtureShapes(t *testing.T) {
	openFixture := func(name string) *DB {
		db, err := Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}

	// Three levels of b-tree: root, interior pages, leaves.
	db := openFixture("types.db")
	tab, err := db.table("deep")
	if err != nil {
		t.Fatal(err)
	}
	if d := depth(t, db, tab.root); d < 3 {
		t.Errorf("deep: b-tree depth %d, want 3 or more", d)
	}

	// Overflow chains.
	db = openFixture("opencode.db")
	long := 0
	err = db.Scan("part", func(_ int64, r Row) error {
		if len(r.String(5)) > 5000 {
			long++
		}
		return nil
	})
	if err != nil || long == 0 {
		t.Errorf("opencode.db: %d parts over 5000 bytes (%v), want some", long, err)
	}

	// Pages read from the WAL. (TestFixtures checks that the frames it
	// must ignore are ignored: stale ones in wal.db, uncommitted and torn
	// ones in waltorn.db.)
	for _, name := range []string{"wal.db", "waltorn.db"} {
		db = openFixture(name)
		if len(db.walFrames) == 0 {
			t.Errorf("%s: no pages from the WAL", name)
		}
	}
}

// depth returns the depth of the b-tree at root, following first children.
func depth(t *testing.T, db *DB, root uint32) int {
	p, err := db.page(root)
	if err != nil {
		t.Fatal(err)
	}
	if p[0] != interiorTable {
		return 1
	}
	first := binary.BigEndian.Uint16(p[12:]) // offset of the first cell
	return 1 + depth(t, db, binary.BigEndian.Uint32(p[first:]))
}

func TestErrors(t *testing.T) {
	db, err := Open(filepath.Join("testdata", "types.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	if _, err := db.Columns("nope"); err == nil {
		t.Error("Columns of a missing table succeeded")
	}
	if err := db.Scan("nope", func(int64, Row) error { return nil }); err == nil {
		t.Error("Scan of a missing table succeeded")
	}

	// An error from fn stops the scan and comes back as is.
	stop := errors.New("stop")
	n := 0
	err = db.Scan("deep", func(int64, Row) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("Scan returned %v after %d rows, want stop after 3", err, n)
	}

	// Names are matched ignoring case.
	if cols, err := db.Columns("NUMS"); err != nil || len(cols) != 7 {
		t.Errorf("Columns(NUMS) = %q, %v", cols, err)
	}

	for _, tc := range []struct{ name, content string }{
		{"empty", ""},
		{"short", "SQLite format 3\x00"},
		{"text", strings.Repeat("not a database\n", 100)},
	} {
		path := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if db, err := Open(path); err == nil {
			db.Close()
			t.Errorf("Open(%s) succeeded", tc.name)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open of a missing file: %v, want ErrNotExist", err)
	}
}

func TestUTF16(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "types.db"))
	if err != nil {
		t.Fatal(err)
	}
	b[59] = 2 // text encoding UTF-16le
	_, err = open(bytes.NewReader(b), int64(len(b)), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "UTF-16") {
		t.Errorf("open of a UTF-16 database: %v, want an error about UTF-16", err)
	}
}

func TestParseCreateTable(t *testing.T) {
	for _, tc := range []struct {
		sql   string
		cols  []string
		alias int
		real  []bool
	}{
		{"CREATE TABLE t (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL)",
			[]string{"id", "session_id", "data"}, -1, []bool{false, false, false}},
		{"CREATE TABLE IF NOT EXISTS `t(x)` (`a``b` integer primary key autoincrement, \"c\"\"d\" float, [e f] numeric(10,2))",
			[]string{"a`b", `c"d`, "e f"}, 0, []bool{false, true, false}},
		{"create table t(a, b int, primary key(b desc), foreign key(a) references u(x), constraint c check(a>0), unique(a, b))",
			[]string{"a", "b"}, -1, []bool{false, false}},
		{"CREATE TABLE t(a, b INTEGER, PRIMARY KEY(b))", []string{"a", "b"}, 1, []bool{false, false}},
		{"CREATE TABLE t(a INTEGER PRIMARY KEY DESC, b DOUBLE DEFAULT (CAST(1 AS REAL)))", []string{"a", "b"}, -1, []bool{false, true}},
		{"CREATE TABLE t(a INT PRIMARY KEY, b VARCHAR -- x, y\n, c /* , */ BLOB)", []string{"a", "b", "c"}, -1, []bool{false, false, false}},
	} {
		cols, alias, err := parseCreateTable(tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		var names []string
		var real []bool
		for _, c := range cols {
			names = append(names, c.name)
			real = append(real, c.real)
		}
		if !slices.Equal(names, tc.cols) || alias != tc.alias || !slices.Equal(real, tc.real) {
			t.Errorf("%s:\ngot  %q alias %d real %v\nwant %q alias %d real %v", tc.sql, names, alias, real, tc.cols, tc.alias, tc.real)
		}
	}
	for _, sql := range []string{
		"CREATE TABLE t",
		"CREATE TABLE t (a, b",
		"CREATE TABLE t (a, , b)",
		"CREATE TABLE t (a TEXT PRIMARY KEY) WITHOUT ROWID",
		"CREATE TABLE t (a, b AS (a + 1))",
	} {
		if cols, _, err := parseCreateTable(sql); err == nil {
			t.Errorf("%s: got %v, want an error", sql, cols)
		}
	}
}

func TestRowHelpers(t *testing.T) {
	r := Row{nil, int64(-7), 2.5, "text", []byte("blob")}
	for i, want := range []string{"", "-7", "2.5", "text", "blob", ""} {
		if got := r.String(i); got != want {
			t.Errorf("String(%d) = %q, want %q", i, got, want)
		}
	}
	for i, want := range []int64{0, -7, 2, 0, 0, 0} {
		if got := r.Int(i); got != want {
			t.Errorf("Int(%d) = %d, want %d", i, got, want)
		}
	}
}

// copyFixture copies a fixture and its WAL, if any, into a temporary
// directory and returns the copy's path.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+suffix))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestIgnoredWAL checks that an empty or invalid WAL is ignored.
func TestIgnoredWAL(t *testing.T) {
	for _, wal := range []string{"", "short", strings.Repeat("\x37\x7f\x06\x82 not a valid header", 100)} {
		path := copyFixture(t, "types.db")
		if err := os.WriteFile(path+"-wal", []byte(wal), 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		check(t, db, loadWant(t, "types.db"))
		db.Close()
	}
}

// TestWALRestart checks that pages of a WAL that a writer restarted after
// Open are refused rather than read.
func TestWALRestart(t *testing.T) {
	path := copyFixture(t, "wal.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// A restart changes the salts, and the frames written after it
	// have the new ones.
	b, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	for off := 32; off+24 <= len(b); off += 24 + db.pageSize {
		b[off+8]++
	}
	if err := os.WriteFile(path+"-wal", b, 0o644); err != nil {
		t.Fatal(err)
	}
	err = db.Scan("part", func(int64, Row) error { return nil })
	if err == nil || !errors.Is(err, ErrChanged) {
		t.Errorf("Scan after a WAL restart: %v, want an error about the restart", err)
	}
}

// TestCheckpointSeen checks that a read fails with ErrChanged once the
// -shm file shows a checkpoint copying frames Open did not see, or a WAL
// restart.
func TestCheckpointSeen(t *testing.T) {
	path := copyFixture(t, "wal.db")
	wal, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	writeShm := func(salt []byte, attempted uint32) {
		shm := make([]byte, 32768) // SQLite's size; only the start matters
		copy(shm[32:], salt)
		binary.NativeEndian.PutUint32(shm[128:], attempted)
		if err := os.WriteFile(path+"-shm", shm, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scan := func(db *DB) error {
		for _, name := range db.Tables() {
			if err := db.Scan(name, func(int64, Row) error { return nil }); err != nil {
				return err
			}
		}
		return nil
	}

	writeShm(wal[16:24], 3) // a checkpoint of frames Open reads
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check(t, db, loadWant(t, "wal.db"))

	writeShm(wal[16:24], db.mxFrame+1)
	if err := scan(db); !errors.Is(err, ErrChanged) {
		t.Errorf("Scan after a checkpoint of newer frames: %v, want ErrChanged", err)
	}
	if db, err := Open(path); err == nil {
		db.Close()
		t.Errorf("Open during a checkpoint of frames it does not see succeeded")
	}
	newSalt := slices.Clone(wal[16:24])
	newSalt[3]++
	writeShm(newSalt, 0)
	if err := scan(db); !errors.Is(err, ErrChanged) {
		t.Errorf("Scan after a WAL restart: %v, want ErrChanged", err)
	}
	writeShm(wal[16:24], db.mxFrame)
	if err := scan(db); err != nil {
		t.Errorf("Scan with a checkpoint of the frames it saw: %v", err)
	}
}

// countingReader counts the reads of the pages under a DB.
type countingReader struct {
	io.ReaderAt
	reads int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads++
	return c.ReaderAt.ReadAt(p, off)
}

// TestScanFrom checks that ScanFrom returns exactly the rows of Scan from
// a rowid on, for every rowid of every fixture table, and that the newest
// rows of a deep table cost a few page reads, not the whole table.
func TestScanFrom(t *testing.T) {
	for _, name := range []string{"opencode.db", "types.db", "wal.db"} {
		db, err := Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range db.Tables() {
			var all []int64
			if err := db.Scan(table, func(rowid int64, _ Row) error { all = append(all, rowid); return nil }); err != nil {
				continue // a table the reader refuses, covered elsewhere
			}
			froms := []int64{math.MinInt64, math.MaxInt64}
			for _, id := range all {
				froms = append(froms, id, id+1)
			}
			for _, from := range froms {
				var got []int64
				if err := db.ScanFrom(table, from, func(rowid int64, _ Row) error { got = append(got, rowid); return nil }); err != nil {
					t.Fatalf("%s %s: ScanFrom(%d): %v", name, table, from, err)
				}
				i, _ := slices.BinarySearch(all, from)
				if !slices.Equal(got, all[i:]) {
					t.Errorf("%s %s: ScanFrom(%d) = %v, want %v", name, table, from, got, all[i:])
				}
			}
		}
		db.Close()
	}

	f, err := os.Open(filepath.Join("testdata", "types.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	reads := func(from int64) int {
		c := &countingReader{ReaderAt: f}
		db, err := open(c, st.Size(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.reads = 0
		if err := db.ScanFrom("deep", from, func(int64, Row) error { return nil }); err != nil {
			t.Fatal(err)
		}
		return c.reads
	}
	if whole, newest := reads(math.MinInt64), reads(math.MaxInt64-1); newest > 5 || newest >= whole/4 {
		t.Errorf("ScanFrom of the last rowid read %d pages, a whole scan %d", newest, whole)
	}
}
