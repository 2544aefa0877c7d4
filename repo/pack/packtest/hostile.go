package packtest

import (
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// Hostile is a smart-HTTP git server on 127.0.0.1 that behaves badly once
// a client fetches: it advertises one branch, then answers the fetch with
// a pack holding a single blob of random bytes, sent Chunk bytes at a
// time with Delay between chunks. A long Delay makes it trickle; a large
// Size makes its pack huge.
type Hostile struct {
	// URL is the repository's URL.
	URL string

	size  int64
	chunk int
	delay time.Duration
	sent  atomic.Int64
}

// StartHostile starts a Hostile server that stops when the test ends.
func StartHostile(t testing.TB, size int64, chunk int, delay time.Duration) *Hostile {
	t.Helper()
	h := &Hostile{size: size, chunk: chunk, delay: delay}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	h.URL = "http://" + l.Addr().String() + "/hostile.git"
	return h
}

// Sent is how many bytes of pack data the server has written so far.
func (h *Hostile) Sent() int64 { return h.sent.Load() }

// hostileCommit is the commit the Hostile server advertises; it never exists.
var hostileCommit = hex.EncodeToString(bytes.Repeat([]byte{0xab}, 20))

func (h *Hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/hostile.git/info/refs":
		w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
		io.WriteString(w, pkt("# service=git-upload-pack\n")+"0000"+
			pkt(hostileCommit+" HEAD\x00symref=HEAD:refs/heads/main agent=hostile\n")+
			pkt(hostileCommit+" refs/heads/main\n")+"0000")
	case r.Method == http.MethodPost && r.URL.Path == "/hostile.git/git-upload-pack":
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
		io.WriteString(w, "0008NAK\n")
		h.writePack(&paced{w: w, rc: http.NewResponseController(w), h: h})
	default:
		http.NotFound(w, r)
	}
}

// pkt frames s as a git pkt-line.
func pkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

// writePack writes a pack of one blob of h.size random bytes (stored, so
// that compression does not shrink it) to w, until w fails.
func (h *Hostile) writePack(w io.Writer) {
	sum := sha1.New()
	out := io.MultiWriter(w, sum)
	var head bytes.Buffer
	head.WriteString("PACK")
	binary.Write(&head, binary.BigEndian, uint32(2))
	binary.Write(&head, binary.BigEndian, uint32(1))
	size := uint64(h.size)
	b := byte(3<<4) | byte(size&0x0f) // type 3 is a blob
	for size >>= 4; size > 0; size >>= 7 {
		head.WriteByte(b | 0x80)
		b = byte(size & 0x7f)
	}
	head.WriteByte(b)
	if _, err := out.Write(head.Bytes()); err != nil {
		return
	}
	z, _ := zlib.NewWriterLevel(out, zlib.NoCompression)
	block := make([]byte, 64<<10)
	rand.Read(block)
	for left := h.size; left > 0; {
		n := int64(len(block))
		if n > left {
			n = left
		}
		if _, err := z.Write(block[:n]); err != nil {
			return
		}
		left -= n
	}
	if z.Close() == nil {
		out.Write(sum.Sum(nil))
	}
}

// paced writes to an HTTP response h.chunk bytes at a time, flushing each
// and waiting h.delay after it, and counts what it sent.
type paced struct {
	w  io.Writer
	rc *http.ResponseController
	h  *Hostile
}

func (p *paced) Write(b []byte) (int, error) {
	written := 0
	for len(b) > 0 {
		n := min(len(b), p.h.chunk)
		m, err := p.w.Write(b[:n])
		written += m
		p.h.sent.Add(int64(m))
		if err == nil {
			err = p.rc.Flush()
		}
		if err != nil {
			return written, err
		}
		b = b[n:]
		if p.h.delay > 0 {
			time.Sleep(p.h.delay)
		}
	}
	return written, nil
}
