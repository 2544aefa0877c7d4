package engine

import "io"

// payloadBuffer is the first buffer readPayload reads into: most
// payloads fit, a 4 KB prompt's among them.
const payloadBuffer = 16 << 10

// readPayload reads r to its end, at most limit bytes, as
// io.ReadAll(io.LimitReader(r, limit)) does, but into a 16 KB buffer
// first: ReadAll starts at 512 bytes, so a 4 KB payload cost seven reads
// and as many buffers. It stops early once what it read is one whole
// JSON object (see objectEnd): an agent, or a wrapper between it and
// the hook, that keeps stdin open after the payload must not make every
// call wait for the watchdog and lose its answer.
func readPayload(r io.Reader, limit int) ([]byte, error) {
	b := make([]byte, 0, min(payloadBuffer, limit))
	var end objectEnd
	for len(b) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append grow the buffer
		}
		n, err := r.Read(b[len(b):min(cap(b), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if end.feed(b[len(b)-n:]) {
			return b, nil
		}
	}
	return b, nil
}

// objectEnd follows a JSON text as it arrives, far enough to tell when
// a top-level object has closed: it counts brackets outside strings and
// does not validate (the decoder does). A text that does not start with
// '{', or goes on after its object closed, is read to its end as before.
type objectEnd struct {
	depth            int
	inString, escape bool
	started, closed  bool
	off              bool // not one object: read to EOF
}

// feed takes the next bytes and reports whether all read so far is one
// object, closed, followed by nothing but white space.
func (o *objectEnd) feed(p []byte) bool {
	for _, c := range p {
		switch {
		case o.off:
			return false
		case o.inString:
			switch {
			case o.escape:
				o.escape = false
			case c == '\\':
				o.escape = true
			case c == '"':
				o.inString = false
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case o.closed:
			o.off = true
		case !o.started:
			o.started, o.off, o.depth = true, c != '{', 1
		case c == '"':
			o.inString = true
		case c == '{' || c == '[':
			o.depth++
		case c == '}' || c == ']':
			o.depth--
			o.closed = o.depth == 0
		}
	}
	return o.closed && !o.off
}
