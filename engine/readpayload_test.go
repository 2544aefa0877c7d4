package engine

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readPayload reads what io.ReadAll of a LimitReader reads, whatever
// the size against its first buffer and the limit, and however the
// reader splits its reads; an error other than EOF comes back.
func TestReadPayloadIsReadAll(t *testing.T) {
	for _, size := range []int{0, 1, 511, 4 << 10, payloadBuffer - 1, payloadBuffer, payloadBuffer + 1, 100 << 10} {
		data := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
		for _, limit := range []int{1, payloadBuffer, 50 << 10, maxPayload + 1} {
			for name, r := range map[string]func() io.Reader{
				"whole":    func() io.Reader { return bytes.NewReader(data) },
				"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
				"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
			} {
				want, _ := io.ReadAll(io.LimitReader(r(), int64(limit)))
				got, err := readPayload(r(), limit)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%d bytes, limit %d, %s: got %d bytes, %v; want %d", size, limit, name, len(got), err, len(want))
				}
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readPayload(io.MultiReader(strings.NewReader("{}"), iotest.ErrReader(boom)), 100); !errors.Is(err, boom) {
		t.Errorf("error = %v, want boom", err)
	}
}
