package engine

import "io"

// payloadBuffer is the first buffer readPayload reads into: most
// payloads fit, a 4 KB prompt's among them.
const payloadBuffer = 16 << 10

// readPayload reads r to its end, at most limit bytes, as
// io.ReadAll(io.LimitReader(r, limit)) does, but into a 16 KB buffer
// first: ReadAll starts at 512 bytes, so a 4 KB payload cost seven reads
// and as many buffers.
func readPayload(r io.Reader, limit int) ([]byte, error) {
	b := make([]byte, 0, min(payloadBuffer, limit))
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
	}
	return b, nil
}
