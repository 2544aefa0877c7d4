package engine

import (
	"encoding/binary"
	"errors"
	"math"
)

// errCorrupt reports a manifest whose bytes do not decode.
var errCorrupt = errors.New("manifest is corrupt")

// encoder appends the manifest's primitive values to a byte slice.
type encoder struct{ b []byte }

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int)        { e.uvarint(uint64(v)) }
func (e *encoder) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) byte(v byte)      { e.b = append(e.b, v) }
func (e *encoder) u32(v uint32)     { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) f64(v float64)    { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *encoder) f32(v float32)    { e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(v)) }

func (e *encoder) bool(v bool) {
	if v {
		e.byte(1)
	} else {
		e.byte(0)
	}
}

func (e *encoder) str(s string) {
	e.int(len(s))
	e.b = append(e.b, s...)
}

func (e *encoder) strs(ss []string) {
	e.int(len(ss))
	for _, s := range ss {
		e.str(s)
	}
}

// putU32 overwrites a fixed-width slot reserved earlier.
func (e *encoder) putU32(at int, v uint32) { binary.LittleEndian.PutUint32(e.b[at:], v) }

// decoder reads values back from a manifest. The first failure sticks:
// every later read returns zero values and err says what happened, so
// callers check once at the end.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.off = len(d.b)
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil || d.off > len(d.b) {
		d.fail()
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) int() int { return int(d.uvarint() & (1<<62 - 1)) }

// count reads a length or count, rejecting one larger than the data.
func (d *decoder) count() int {
	v := d.uvarint()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *decoder) varint() int64 {
	if d.err != nil || d.off > len(d.b) {
		d.fail()
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n < 0 || d.off+n > len(d.b) {
		d.fail()
		return nil
	}
	s := d.b[d.off : d.off+n : d.off+n]
	d.off += n
	return s
}

func (d *decoder) byte() byte {
	if s := d.bytes(1); s != nil {
		return s[0]
	}
	return 0
}

func (d *decoder) bool() bool { return d.byte() != 0 }

func (d *decoder) u32() uint32 {
	if s := d.bytes(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (d *decoder) f64() float64 {
	if s := d.bytes(8); s != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(s))
	}
	return 0
}

func (d *decoder) f32() float32 { return math.Float32frombits(d.u32()) }

// raw reads a length-prefixed string without copying it.
func (d *decoder) raw() []byte { return d.bytes(d.count()) }

func (d *decoder) str() string { return string(d.raw()) }

func (d *decoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		out = append(out, d.str())
	}
	return out
}

// skip moves past a length-prefixed string.
func (d *decoder) skip() { d.bytes(d.count()) }
