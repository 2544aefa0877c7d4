package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// readAll reads every table of db, as a caller would, ignoring errors.
func readAll(db *DB) {
	for _, name := range db.Tables() {
		db.Columns(name)
		db.Scan(name, func(_ int64, r Row) error {
			for i := range r {
				r.String(i)
			}
			return nil
		})
	}
}

// mutate returns a copy of a database or WAL file with a few bytes changed
// or its end cut off. Its pages (or WAL frames) are stride bytes long from
// offset start.
func mutate(rng *rand.Rand, b []byte, start, stride int) []byte {
	b = slices.Clone(b)
	if len(b) == 0 {
		return b
	}
	switch rng.IntN(4) {
	case 0: // cut off
		return b[:rng.IntN(len(b))]
	case 1: // flip bits anywhere
		for range 1 + rng.IntN(4) {
			b[rng.IntN(len(b))] ^= 1 << rng.IntN(8)
		}
	case 2: // overwrite bytes of page (or frame) headers and cell pointers
		for range 1 + rng.IntN(4) {
			pg := rng.IntN(max(1, (len(b)-start)/stride))
			i := start + pg*stride + rng.IntN(40)
			if start == 0 && pg == 0 {
				i += 100 // after the database header
			}
			if i < len(b) {
				b[i] = byte(rng.IntN(256))
			}
		}
	case 3: // overwrite a byte of the file header
		b[rng.IntN(min(len(b), 100))] = byte(rng.IntN(256))
	}
	return b
}

// TestMutations reads fixtures with bytes changed or cut off, a few
// thousand times with a fixed seed, and checks that no read panics or
// hangs. Errors are expected.
func TestMutations(t *testing.T) {
	type fixture struct {
		name      string
		main, wal []byte
	}
	var fixtures []fixture
	for _, name := range []string{"types.db", "opencode.db", "wal.db", "waltorn.db"} {
		f := fixture{name: name}
		var err error
		if f.main, err = os.ReadFile(filepath.Join("testdata", name)); err != nil {
			t.Fatal(err)
		}
		if f.wal, err = os.ReadFile(filepath.Join("testdata", name+"-wal")); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		fixtures = append(fixtures, f)
	}

	const n = 3000
	var at atomic.Int64
	done := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Sprintf("mutation %d: panic: %v\n%s", at.Load(), r, debug.Stack())
			}
		}()
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range n {
			at.Store(int64(i))
			f := fixtures[rng.IntN(len(fixtures))]
			main, wal := f.main, f.wal
			pageSize := int(binary.BigEndian.Uint16(main[16:]))
			if wal == nil || rng.IntN(4) > 0 {
				main = mutate(rng, main, 0, pageSize)
			} else {
				wal = mutate(rng, wal, 32, 24+pageSize)
			}
			var walr io.ReaderAt
			if wal != nil {
				walr = bytes.NewReader(wal)
			}
			if db, err := open(bytes.NewReader(main), int64(len(main)), walr, nil); err == nil {
				readAll(db)
			}
		}
		done <- ""
	}()
	select {
	case msg := <-done:
		if msg != "" {
			t.Fatal(msg)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("mutation %d has not ended after 20s", at.Load())
	}
}

// FuzzOpen reads arbitrary database files; go test runs it on the
// fixtures, go test -fuzz=FuzzOpen on more.
func FuzzOpen(f *testing.F) {
	for _, name := range []string{"types.db", "wal.db"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if db, err := open(bytes.NewReader(b), int64(len(b)), nil, nil); err == nil {
			readAll(db)
		}
	})
}
