package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
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
	if _, err := readPayload(io.MultiReader(strings.NewReader(`{"a":`), iotest.ErrReader(boom)), 100); !errors.Is(err, boom) {
		t.Errorf("error = %v, want boom", err)
	}
}

// A writer that keeps stdin open after the payload must not make the
// hook wait for its watchdog: once the bytes read are one whole object,
// readPayload returns them. Anything else is read to the end as before.
func TestReadPayloadStopsAtObjectEnd(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		want   string // "" means it must wait for the end
	}{
		{[]string{`{"a":"}"}`}, `{"a":"}"}`},
		{[]string{`{"a":"\\\"}{"}` + "\n"}, `{"a":"\\\"}{"}` + "\n"},
		{[]string{`{"a":[1,{"b":2}]`, `,"c":"x"`, "}\n"}, `{"a":[1,{"b":2}],"c":"x"}` + "\n"},
		{[]string{" \n{", "}", " \r\n"}, " \n{}"},
		{[]string{`{"a":"\"}`}, ""},    // still in the string
		{[]string{`{"a":1} {}`}, ""},   // two values: the decoder must see both
		{[]string{`[{"a":1}]`}, ""},    // not an object
		{[]string{`{"a":1`, `}x`}, ""}, // goes on after it closed
	} {
		r, w := io.Pipe()
		go func() {
			for _, s := range tc.writes {
				w.Write([]byte(s))
			}
		}()
		done := make(chan string, 1)
		go func() {
			b, _ := readPayload(r, 1<<20)
			done <- string(b)
		}()
		select {
		case got := <-done:
			if tc.want == "" || got != tc.want {
				t.Errorf("%q: read %q with stdin open, want %q", tc.writes, got, tc.want)
			}
		case <-time.After(200 * time.Millisecond):
			if tc.want != "" {
				t.Errorf("%q: still reading with stdin open, want %q", tc.writes, tc.want)
			}
		}
		w.Close()
		r.Close()
	}
}

// objectEnd never cuts a valid object short and always sees its end,
// however the bytes arrive.
func FuzzObjectEnd(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":"}\"{"}`, ` {"a":[1,{"b":[]}]} `, `{"a":"\\"}`, `[1]`, `{"a":1}}`} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, step uint8) {
		n := max(int(step), 1)
		var o objectEnd
		closedAt := -1
		for i := 0; i < len(s) && closedAt < 0; i += n {
			if o.feed([]byte(s[i:min(i+n, len(s))])) {
				closedAt = min(i+n, len(s))
			}
		}
		var v map[string]any
		if json.Unmarshal([]byte(s), &v) != nil || v == nil {
			return
		}
		end := len(strings.TrimRight(s, " \t\r\n"))
		if closedAt < end {
			t.Errorf("objectEnd(%q, step %d) closed after %d bytes, want %d", s, n, closedAt, end)
		}
	})
}
