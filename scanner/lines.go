package scanner

import (
	"bufio"
	"errors"
	"io"
	"sync"
)

// lineReader reads newline-terminated lines with a cap on their length.
// A longer line is skipped (and counted) without being held in memory, so
// a 100 MB line costs the reader its buffer and nothing more.
type lineReader struct {
	r        *bufio.Reader
	max      int
	buf      []byte
	off      int64 // offset of the next unread byte
	line     int   // number of the last line returned
	overlong int
	// partial is set when the file ends in a line with no newline: the
	// offset where it starts, to read it again next time.
	partial int64
}

// readers keeps the buffers of finished line readers for the next file.
var readers = sync.Pool{New: func() any { return &lineReader{r: bufio.NewReaderSize(nil, 64<<10)} }}

func newLineReader(r io.Reader, start int64, startLine, max int) *lineReader {
	lr := readers.Get().(*lineReader)
	lr.r.Reset(r)
	buf := lr.buf
	if cap(buf) > 1<<20 {
		buf = nil // do not keep one huge line's buffer
	}
	*lr = lineReader{r: lr.r, buf: buf[:0], max: max, off: start, line: startLine, partial: -1}
	return lr
}

// release returns the reader's buffers; it must not be used after.
func (lr *lineReader) release() {
	lr.r.Reset(nil)
	readers.Put(lr)
}

// resume returns where the next scan should start, and how many lines
// come before that offset.
func (lr *lineReader) resume() (int64, int) {
	if lr.partial >= 0 {
		return lr.partial, lr.line - 1
	}
	return lr.off, lr.line
}

// next returns the next line without its newline, and the offset at which
// it starts. complete is false for a last line with no newline yet (a
// half-written record). err is io.EOF at the end.
func (lr *lineReader) next() (line []byte, start int64, complete bool, err error) {
	for {
		start = lr.off
		lr.buf = lr.buf[:0]
		skipping := false
		for {
			chunk, err := lr.r.ReadSlice('\n')
			lr.off += int64(len(chunk))
			if !skipping {
				if len(lr.buf)+len(chunk) > lr.max+1 {
					skipping = true
					lr.buf = lr.buf[:0]
				} else {
					lr.buf = append(lr.buf, chunk...)
				}
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, start, false, err
			}
			atEOF := err != nil
			if atEOF && lr.off == start {
				return nil, start, false, io.EOF
			}
			lr.line++
			if atEOF {
				lr.partial = start
			}
			if skipping {
				lr.overlong++
				if atEOF {
					return nil, start, false, io.EOF
				}
				break // skip it and read the next line
			}
			if atEOF {
				return lr.buf, start, false, nil
			}
			return lr.buf[:len(lr.buf)-1], start, true, nil
		}
	}
}
