package sqlitefile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
)

// readWAL indexes the write-ahead log: which pages it holds newer copies
// of, as of its last valid commit. A WAL is a 32-byte header (magic,
// format version, page size, checkpoint sequence, two salts, checksum),
// then frames: a 24-byte header (page number, database size in pages
// after the commit for a transaction's last frame or 0, the salts,
// cumulative checksum) and a page. A frame counts if its salts match the
// header's and the checksum chain verifies up to it, and if a commit
// frame follows it; the rest is a transaction in progress, a torn write,
// or stale frames from before the WAL restarted. A WAL that is empty or
// invalid is ignored, as SQLite ignores it.
func (db *DB) readWAL(wal io.ReaderAt) error {
	var h [32]byte
	if n, err := wal.ReadAt(h[:], 0); n < len(h) {
		if err == io.EOF {
			return nil
		}
		return err
	}
	be := binary.BigEndian
	magic := be.Uint32(h[0:])
	if magic&^1 != 0x377f0682 || be.Uint32(h[4:]) != 3007000 || be.Uint32(h[8:]) != uint32(db.pageSize) {
		return nil
	}
	// The checksums sum 32-bit words in the byte order the magic names,
	// and are stored big-endian.
	var order binary.ByteOrder = binary.LittleEndian
	if magic&1 == 1 {
		order = binary.BigEndian
	}
	s0, s1 := walChecksum(order, 0, 0, h[:24])
	if s0 != be.Uint32(h[24:]) || s1 != be.Uint32(h[28:]) {
		return nil
	}
	copy(db.walSalt[:], h[16:24])

	type frame struct {
		pgno uint32
		off  int64
	}
	var pending []frame // frames of the transaction being read
	frames := make(map[uint32]int64)
	r := bufio.NewReaderSize(io.NewSectionReader(wal, 32, 1<<62), 1<<16)
	buf := make([]byte, 24+db.pageSize)
	for off := int64(32); ; off += int64(len(buf)) {
		if _, err := io.ReadFull(r, buf); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				break
			}
			return err
		}
		if !bytes.Equal(buf[8:16], h[16:24]) {
			break
		}
		s0, s1 = walChecksum(order, s0, s1, buf[:8])
		s0, s1 = walChecksum(order, s0, s1, buf[24:])
		pgno := be.Uint32(buf)
		if s0 != be.Uint32(buf[16:]) || s1 != be.Uint32(buf[20:]) || pgno == 0 {
			break
		}
		pending = append(pending, frame{pgno, off})
		if size := be.Uint32(buf[4:]); size != 0 { // commit
			for _, f := range pending {
				frames[f.pgno] = f.off
			}
			pending = pending[:0]
			db.nPages, db.mxFrame = size, uint32((off-32)/int64(len(buf))+1)
		}
	}
	if len(frames) > 0 {
		db.wal, db.walFrames = wal, frames
	}
	return nil
}

// The -shm file is SQLite's WAL index, shared memory of the processes
// using the database, in their byte order. It starts with a copy of the
// WAL header's salts (at 32), and has at 128 nBackfillAttempted: the
// number of frames a checkpoint has started to copy into the main file.
const shmSize = 136

// watch keeps shm to see later if the database changed under the reader.
// If the WAL had no valid header, its salts are those in shm for now.
func (db *DB) watch(shm io.ReaderAt) {
	var b [shmSize]byte
	if n, _ := shm.ReadAt(b[:], 0); n == len(b) && db.walSalt == [8]byte{} {
		copy(db.walSalt[:], b[32:40])
	}
	db.shm = shm
}

// changed reports whether the -shm file shows that the WAL was restarted
// since Open, or that a checkpoint started copying frames Open did not
// see into the main file: pages read from there may then be newer than
// the rest. Without a readable -shm file there is no way to know, and it
// reports false.
func (db *DB) changed() bool {
	var b [shmSize]byte
	if db.shm == nil {
		return false
	}
	if n, _ := db.shm.ReadAt(b[:], 0); n < len(b) {
		return false
	}
	return !bytes.Equal(b[32:40], db.walSalt[:]) || binary.NativeEndian.Uint32(b[128:]) > db.mxFrame
}

// walChecksum adds b, a multiple of 8 bytes long, to the WAL checksum
// s0, s1.
func walChecksum(order binary.ByteOrder, s0, s1 uint32, b []byte) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
