package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// maxDepth bounds the depth of a b-tree; real ones stay under 10.
const maxDepth = 40

// B-tree page types (the first byte of a page's b-tree header).
const (
	interiorTable = 0x05
	leafTable     = 0x0d
)

// pageErr returns an error about page pgno; format may use %w.
func pageErr(pgno uint32, format string, args ...any) error {
	return fmt.Errorf("sqlitefile: page %d: "+format, append([]any{pgno}, args...)...)
}

// page reads page pgno (numbered from 1): from its latest committed WAL
// frame if it has one, else from the main file. Its errors do not name
// the page; callers add that.
func (db *DB) page(pgno uint32) ([]byte, error) {
	if pgno < 1 || pgno > db.nPages {
		return nil, fmt.Errorf("out of range (the database has %d pages)", db.nPages)
	}
	if off, ok := db.walFrames[pgno]; ok {
		// Read the frame header too: a writer that restarted the WAL
		// since Open overwrites frames, with new salts.
		buf := make([]byte, 24+db.pageSize)
		if n, err := db.wal.ReadAt(buf, off); n < len(buf) {
			return nil, fmt.Errorf("reading WAL frame: %w", noEOF(err))
		}
		if !bytes.Equal(buf[8:16], db.walSalt[:]) || binary.BigEndian.Uint32(buf) != pgno {
			return nil, fmt.Errorf("%w (WAL restarted)", ErrChanged)
		}
		return buf[24:], nil
	}
	buf := make([]byte, db.pageSize)
	if n, err := db.main.ReadAt(buf, int64(pgno-1)*int64(db.pageSize)); n < len(buf) {
		return nil, noEOF(err)
	}
	return buf, nil
}

// noEOF turns the io.EOF of a short read into io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// scan calls fn for each row of t's b-tree, in rowid order. An error
// from fn comes back as is; any other becomes ErrChanged if the file
// changed, as that may be its cause.
func (db *DB) scan(t *table, from int64, fn func(int64, Row) error) error {
	stopped := false
	err := db.walk(t, t.root, 0, make(map[uint32]bool), from, func(rowid int64, row Row) error {
		err := fn(rowid, row)
		stopped = err != nil
		return err
	})
	if err != nil && !stopped && !errors.Is(err, ErrChanged) && db.changed() {
		return fmt.Errorf("%w; %w", err, ErrChanged)
	}
	return err
}

// walk visits the table b-tree page pgno and its subtree, left to right,
// passing fn the rows whose rowid is at least from; it skips the subtrees
// that hold only smaller rowids. seen holds every page visited so far,
// tree and overflow pages, so that a loop (a corrupt file, or pages
// reused by a writer) ends the scan.
func (db *DB) walk(t *table, pgno uint32, depth int, seen map[uint32]bool, from int64, fn func(int64, Row) error) error {
	if depth > maxDepth {
		return pageErr(pgno, "b-tree deeper than %d", maxDepth)
	}
	if seen[pgno] {
		return pageErr(pgno, "visited twice")
	}
	seen[pgno] = true
	p, err := db.page(pgno)
	if err != nil {
		return pageErr(pgno, "%w", err)
	}
	p = p[:db.usable]
	h := 0 // offset of the b-tree header
	if pgno == 1 {
		h = 100 // after the database header
	}
	kind, n := p[h], int(binary.BigEndian.Uint16(p[h+3:]))
	ptrs := h + 8 // cell pointer array
	switch kind {
	case interiorTable:
		ptrs += 4 // after the right-most child pointer
	case leafTable:
	default:
		return pageErr(pgno, "not a table b-tree page (type %#x)", kind)
	}
	end := ptrs + 2*n
	if end > len(p) {
		return pageErr(pgno, "%d cells do not fit", n)
	}
	var ids []int64 // the rows of a leaf, passed to fn once all are read
	var rows []Row
	for i := range n {
		off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
		if off < end || off >= len(p) {
			return pageErr(pgno, "cell %d at offset %d out of bounds", i, off)
		}
		cell := p[off:]
		if kind == interiorTable {
			// Left child pointer, then the largest rowid in that child.
			key, n := uvarint(cell[min(4, len(cell)):])
			if len(cell) < 4 || n == 0 {
				return pageErr(pgno, "cell %d truncated", i)
			}
			if int64(key) < from {
				continue
			}
			if err := db.walk(t, binary.BigEndian.Uint32(cell), depth+1, seen, from, fn); err != nil {
				return err
			}
			continue
		}
		if _, n := uvarint(cell); n > 0 {
			if rowid, m := uvarint(cell[n:]); m > 0 && int64(rowid) < from {
				continue // before the range: not even its overflow is read
			}
		}
		rowid, row, err := db.leafCell(cell, len(t.cols), seen)
		if err != nil {
			return pageErr(pgno, "cell %d: %w", i, err)
		}
		if t.alias >= 0 {
			row[t.alias] = rowid // stored as NULL
		}
		for j, c := range t.cols {
			if v, ok := row[j].(int64); ok && c.real {
				row[j] = float64(v)
			}
		}
		ids, rows = append(ids, rowid), append(rows, row)
	}
	if kind == interiorTable {
		return db.walk(t, binary.BigEndian.Uint32(p[h+8:]), depth+1, seen, from, fn)
	}
	// Pages read since the last check may have been checkpointed over.
	if db.changed() {
		return pageErr(pgno, "%w", ErrChanged)
	}
	for i, row := range rows {
		if err := fn(ids[i], row); err != nil {
			return err
		}
	}
	return nil
}

// leafCell decodes a table leaf cell: payload size, rowid, the payload's
// local part and, if it overflows, the number of its first overflow page.
func (db *DB) leafCell(cell []byte, ncols int, seen map[uint32]bool) (int64, Row, error) {
	size, n := uvarint(cell)
	rowid, m := uvarint(cell[n:])
	if n == 0 || m == 0 {
		return 0, nil, errors.New("truncated header")
	}
	payload, err := db.payload(cell[n+m:], size, seen)
	if err != nil {
		return 0, nil, err
	}
	row, err := decodeRecord(payload, ncols)
	return int64(rowid), row, err
}

// payload assembles a payload of size bytes from the cell content that
// follows the cell header and, past the part kept on the page, its
// overflow chain: pages holding the number of the next page (0 for none),
// then usable-4 bytes of payload.
func (db *DB) payload(cell []byte, size uint64, seen map[uint32]bool) ([]byte, error) {
	u := uint64(db.usable)
	x := u - 35 // the most a table leaf keeps on the page
	if size <= x {
		if uint64(len(cell)) < size {
			return nil, fmt.Errorf("payload of %d bytes overruns the page", size)
		}
		return cell[:size], nil
	}
	m := (u-12)*32/255 - 23 // the least kept on the page when it overflows
	local := m + (size-m)%(u-4)
	if local > x {
		local = m
	}
	if size-local > uint64(db.nPages)*(u-4) {
		return nil, fmt.Errorf("payload of %d bytes is larger than the database", size)
	}
	if uint64(len(cell)) < local+4 {
		return nil, fmt.Errorf("payload overruns the page")
	}
	out := slices.Clone(cell[:local])
	next := binary.BigEndian.Uint32(cell[local:])
	for uint64(len(out)) < size {
		if next == 0 {
			return nil, fmt.Errorf("overflow chain ends %d bytes short", size-uint64(len(out)))
		}
		if seen[next] {
			return nil, fmt.Errorf("overflow page %d visited twice", next)
		}
		seen[next] = true
		p, err := db.page(next)
		if err != nil {
			return nil, fmt.Errorf("overflow page %d: %w", next, err)
		}
		chunk := p[4:db.usable]
		if rest := size - uint64(len(out)); rest < uint64(len(chunk)) {
			chunk = chunk[:rest]
		}
		out = append(out, chunk...)
		next = binary.BigEndian.Uint32(p)
	}
	return out, nil
}

// intSize is the size in bytes of an integer of serial type 1 to 6.
var intSize = [7]int{0, 1, 2, 3, 4, 6, 8}

// decodeRecord decodes a record (a header of serial types, then the
// values) into a row of ncols values. A record may have fewer values
// than the table has columns, if columns were added after it was
// written; those read as NULL.
func decodeRecord(p []byte, ncols int) (Row, error) {
	hsize, n := uvarint(p)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(p)) {
		return nil, errors.New("bad record header size")
	}
	types, body := p[n:hsize], p[hsize:]
	row := make(Row, 0, ncols)
	for len(types) > 0 {
		st, n := uvarint(types)
		if n == 0 {
			return nil, errors.New("truncated record header")
		}
		types = types[n:]
		var size uint64
		switch {
		case st >= 1 && st <= 6:
			size = uint64(intSize[st])
		case st == 7:
			size = 8
		case st == 10, st == 11:
			return nil, fmt.Errorf("reserved serial type %d", st)
		case st >= 12:
			size = (st - 12) / 2
		}
		if size > uint64(len(body)) {
			return nil, fmt.Errorf("value %d overruns the record", len(row))
		}
		row = append(row, value(st, body[:size]))
		body = body[size:]
	}
	if len(row) > ncols {
		return nil, fmt.Errorf("record has %d values for %d columns", len(row), ncols)
	}
	for len(row) < ncols {
		row = append(row, nil)
	}
	return row, nil
}

// value decodes a value of serial type st (not 10 or 11) from b, which
// has the size st calls for.
func value(st uint64, b []byte) any {
	switch {
	case st == 0:
		return nil
	case st <= 6: // big-endian two's complement integer
		i := int64(int8(b[0]))
		for _, c := range b[1:] {
			i = i<<8 | int64(c)
		}
		return i
	case st == 7:
		return math.Float64frombits(binary.BigEndian.Uint64(b))
	case st <= 9: // the integers 0 and 1
		return int64(st - 8)
	case st%2 == 0:
		return slices.Clone(b) // blob; not nil even if empty
	default:
		return string(b)
	}
}

// uvarint decodes an SQLite varint: 1 to 9 bytes, big-endian, 7 bits a
// byte with the high bit set on all but the last, which has 8 bits if it
// is the ninth. It returns the value and its length, 0 if b is too short.
func uvarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}
